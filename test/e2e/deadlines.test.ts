/**
 * Deadlines hold whatever cloudgate's children do: a kubectl that hangs with a child of its own holding
 * its output (a credential plugin waiting for a browser) is killed with its whole process group at the
 * deadline. And `--timeout` is refused outside 0.1-3600 s. Run `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { waitUntil } from '../helpers/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'cg-deadlines-'));

/** A unique sleep length, so the leftover check finds only this test's processes. */
const marker = 1000 + Math.floor(Math.random() * 8000);

function hangingKubectl(): string {
  const path = join(dir, 'kubectl');
  // The background sleep inherits stdout and stderr: the pipes stay open after the script dies.
  writeFileSync(path, `#!/bin/sh\nsleep ${marker} &\nwait\n`);
  chmodSync(path, 0o755);
  return path;
}

function sleepersLeft(): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => new RegExp(`\\bsleep ${marker}$`).test(line.trim()));
}

describe('a hanging kubectl', () => {
  it('is killed with its children at the deadline: doctor --only kube --timeout 2 ends within 3.5 s', async () => {
    const kubectl = hangingKubectl();
    const started = Date.now();
    const r = await runCli(['doctor', '--only', 'kube', '--timeout', '2', '--json'], {
      env: { PATH: `${dir}:${process.env.PATH}`, CLOUDGATE_KUBECTL: kubectl, KUBECONFIG: join(dir, 'none') },
      timeoutMs: 30_000,
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(3500);
    expect(r.code).not.toBeNull();
    const report = JSON.parse(r.stdout) as { checks: { id: string; status: string }[] };
    expect(report.checks.length).toBeGreaterThan(0);
    // The group was killed: its processes are gone once the kernel has reaped them (a bounded wait).
    await waitUntil("the fake kubectl's children to be gone", () => sleepersLeft().length === 0, {
      timeoutMs: 2000,
      lastSeen: () => sleepersLeft().join('\n'),
    });
  }, 40_000);
});

describe('--timeout', () => {
  for (const value of ['400000', '0.000001', '-1', 'abc', '0', '', 'Infinity', '1e9']) {
    it(`refuses ${JSON.stringify(value)} with exit 2 naming the range`, async () => {
      const r = await runCli(['doctor', '--only', 'inventory', `--timeout=${value}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/0\.1.*3600/);
      expect(r.stderr).not.toMatch(/unexpected error/);
    });
  }

  it('refuses an out-of-range value for token as well', async () => {
    const r = await runCli(['token', '--timeout', '99999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/0\.1.*3600/);
  });

  for (const value of ['0.1', '3600', '2.5']) {
    it(`accepts ${value}`, async () => {
      const r = await runCli([
        'doctor',
        '--only',
        'inventory',
        '--timeout',
        value,
        '--inventory',
        join(dir, 'missing.yml'),
        '--json',
      ]);
      expect(r.code).not.toBe(2);
      expect(r.stderr).not.toMatch(/--timeout/);
    });
  }
});
