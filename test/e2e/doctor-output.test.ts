import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';

/** Runs the CLI with its stdout a pipe nobody reads: closed before the CLI writes, as `| head -1` does. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

// No settings at all (an empty folder, no environment of ours): every group skips for want of them.
const empty = () => mkdtempSync(join(tmpdir(), 'cloudgate-output-'));
const bare = { CLOUDGATE_KUBECTL: '/nonexistent/kubectl', OS_AUTH_URL: '', KUBECONFIG: '/nonexistent/kubeconfig' };

describe('doctor output', () => {
  it("a closed pipe ends every kind of output quietly, with the command's own exit code", async () => {
    for (const args of [
      ['doctor', '--list-checks'],
      ['doctor', '--list-checks', '--json'],
      ['--help'],
      ['--version'],
    ]) {
      const r = await withClosedStdout(args);
      expect(r.stderr, args.join(' ')).toBe('');
      expect(r.code, args.join(' ')).toBe(0);
    }
  });

  it('--strict fails a requested group that checked nothing; without it the report says so and what to set', async () => {
    const cwd = empty();
    const plain = await runCli(['doctor', '--only', 'signin'], { cwd, env: bare });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('Nothing was checked');
    expect(plain.stdout).toContain('CLOUDGATE_BROKER_URL');
    const strict = await runCli(['doctor', '--only', 'signin', '--strict'], { cwd, env: bare });
    expect(strict.code).toBe(1);
  });

  it("--json keeps schema v1 and adds each skip's reason code", async () => {
    const r = await runCli(['doctor', '--only', 'signin,discovery', '--json'], { cwd: empty(), env: bare });
    const doc = JSON.parse(r.stdout);
    expect(doc.schema).toBe('cloudgate.doctor/v1');
    const exchange = doc.checks.find((c: { id: string }) => c.id === 'signin.exchange');
    expect(exchange).toMatchObject({ status: 'skip', reason: { code: 'not-configured' } });
    const document = doc.checks.find((c: { id: string }) => c.id === 'discovery.document');
    expect(document.reason.code).toBe('not-configured');
    expect(document.reason.text).toContain('--issuer-url');
  });

  it('every format ends its output with a newline', async () => {
    for (const format of ['text', 'json', 'junit']) {
      const r = await runCli(['doctor', '--only', 'signin', '--format', format], { cwd: empty(), env: bare });
      expect(r.stdout.endsWith('\n'), format).toBe(true);
      expect(r.stdout.endsWith('\n\n'), format).toBe(false);
    }
  });
});
