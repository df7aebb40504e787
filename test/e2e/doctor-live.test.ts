/**
 * The doctor as an operator runs it at a terminal (tmux) and from a script: groups under their line,
 * NO_COLOR honoured, and Ctrl+C ending with "Interrupted", what finished, and exit code 130.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { launchCloudgate, type Terminal } from '../helpers/tmux.js';
import { waitUntil } from '../helpers/wait.js';

const COLOUR = /\u001b\[(?:\d+;)*(?:3[0-7]|38;[25];[\d;]+|9[0-7])(?:;\d+)*m/;

let dir: string;
let silent: Server;
let port: number;
let connections: number;
let term: Terminal | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-doctor-live-'));
  // Accepts connections and never answers: a TLS check against it runs until stopped.
  connections = 0;
  silent = createServer(() => connections++);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  port = (silent.address() as { port: number }).port;
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  silent.close();
  await rm(dir, { recursive: true, force: true });
});

describe('doctor at a terminal', () => {
  it('groups the checks under their line, says what each empty group needs, and uses no colour with NO_COLOR', async () => {
    // The default size: a pane resized after the start makes Ink redraw, which is not what is tested here.
    term = launchCloudgate(['doctor', '--only', 'inventory,signin'], { cwd: dir });
    const screen = await term.waitFor(/EXIT=\d+/);
    expect(screen).toMatch(/\[-\] Inventory \(1 skip\)\n {4}Not configured: No inventory at the default path/);
    expect(screen).toMatch(
      /\[-\] Federated sign-in chain \(7 skip\)\n {4}Not configured \(7 checks\): The sign-in chain is not configured/,
    );
    // The live view (group lines with done/total) is gone: only the report is on the screen.
    expect(screen).not.toMatch(/\(\d+\/\d+/);
    expect(screen).toContain('8 checks: 0 ok, 0 warn, 0 fail, 8 skipped.');
    expect(term.screen(true)).not.toMatch(COLOUR);
  });

  it('Ctrl+C stops the running checks: "Interrupted", what finished, the rest not run, exit 130', async () => {
    term = launchCloudgate(
      ['doctor', '--only', 'inventory,tls', '--endpoint', `127.0.0.1:${port}`, '--timeout', '60'],
      { cwd: dir },
    );
    await term.waitFor(/\[.\] Served certificates \(\d\/2\)/);
    await waitUntil('the TLS check to connect to the silent endpoint', () => connections > 0);
    term.send('C-c');
    const screen = await term.waitFor(/EXIT=\d+/, 5000);
    expect(screen).toContain('Interrupted');
    expect(screen).toContain('[-] Inventory');
    expect(screen).toMatch(/check[s]? (was|were) not run/);
    expect(screen).toContain('EXIT=130');
  });
});

describe('doctor without a terminal', () => {
  it('SIGINT stops the checks, prints the partial report and "Interrupted", and exits 130 within a second', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'doctor', '--only', 'tls', '--endpoint', `127.0.0.1:${port}`, '--timeout', '60'],
      {
        cwd: dir,
        env: { ...process.env, CI: 'true', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    await waitUntil('the TLS check to connect to the silent endpoint', () => connections > 0, {
      lastSeen: () => stdout + stderr,
    });
    const sent = Date.now();
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(Date.now() - sent).toBeLessThan(1500);
    expect(code).toBe(130);
    expect(stderr).toContain('Interrupted');
    expect(stdout).toContain('Served certificates');
    expect(stdout).toMatch(/not run/);
  });
});
