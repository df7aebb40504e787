/**
 * TERM=dumb: a terminal that cannot move its cursor or draw box characters. `setup` and `regenerate`
 * ask line by line there (as --plain), in ASCII, with no escape sequence at all; the same commands on a
 * capable terminal draw the full-screen walkthrough. The raw bytes come from a real pseudo-terminal
 * (`script`); the questions are answered in tmux as a user types them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { launchCloudgate, type Terminal } from '../helpers/tmux.js';
import { waitUntil } from '../helpers/wait.js';

let dir: string;
let term: Terminal | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudgate-e2e-dumb-'));
  writeFileSync(
    join(dir, 'certificates.yml'),
    'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n',
  );
});
afterEach(() => {
  term?.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything the command writes to its terminal until `until` shows in it, as raw bytes; then it is ended. */
async function rawOutput(args: string[], termName: string, until: RegExp): Promise<string> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: termName, NO_COLOR: '' };
  delete env.CI;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let raw = '';
  child.stdout.on('data', (d: Buffer) => (raw += d.toString('latin1')));
  try {
    await waitUntil(`${args[0]} to ask on TERM=${termName}`, () => until.test(raw), {
      timeoutMs: 20_000,
      lastSeen: () => raw,
    });
  } finally {
    child.kill('SIGKILL');
  }
  return raw;
}

describe('TERM=dumb', () => {
  it.each([
    ['setup', ['setup', '--names', 'platform', '--inventory', 'new.yml']],
    ['regenerate', ['regenerate', '--inventory', 'certificates.yml']],
  ])(
    '%s asks line by line: no escape sequence, ASCII only; on a capable terminal it draws the walkthrough',
    async (_, args) => {
      const dumb = await rawOutput(args, 'dumb', /Choose 1-\d+ \[\d+\]: /);
      expect(dumb).not.toContain('\x1b');
      expect(dumb).toMatch(/^[\x00-\x7f]*$/);
      const full = await rawOutput(args, 'xterm-256color', /\x1b\[/);
      expect(full).not.toMatch(/Choose 1-\d+ \[\d+\]: /);
    },
  );

  it('the line prompts take the answers typed (tmux)', async () => {
    term = launchCloudgate(['setup', '--names', 'platform', '--inventory', join(dir, 'new.yml')], {
      cwd: dir,
      env: { TERM: 'dumb' },
    });
    await term.waitFor(/\? Certificate type[\s\S]*Choose 1-\d \[1\]:\s*$/m);
    term.send('1', 'Enter');
    await term.waitFor(/\? Certificate issuer/);
    expect(term.screen()).not.toMatch(/[^\x00-\x7f]/);
  });
});
