/**
 * SIGTERM while kubectl runs (a cron job stopped, a pod evicted): cloudgate kills kubectl's whole
 * process group and exits 143 after its cleanups, leaving no kubectl running and no temp or lock file.
 * kubectl is a script on PATH that records its pid and sleeps. Run `npm run build` first.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'cg-sigterm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const marker = 1000 + Math.floor(Math.random() * 8000);
const pidFile = join(dir, 'kubectl.pid');

writeFileSync(
  join(dir, 'kubectl'),
  `#!/bin/sh\necho $$ > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}\nsleep ${marker} &\nwait\n`,
  { mode: 0o755 },
);

/** Resolves once `file` exists (watching its folder, no fixed sleep). */
function appears(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      if (existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

/** States of the sleeps the fake kubectl started ("Z" for a zombie), none when all are gone. */
const sleepersLeft = () =>
  execFileSync('ps', ['-eo', 'stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([, ...args]) => args.join(' ') === `sleep ${marker}`)
    .map(([stat]) => stat!.slice(0, 1));

function stateOf(pid: number): string {
  try {
    return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .slice(0, 1);
  } catch {
    return ''; // ps exits 1 when there is no such process
  }
}

describe('SIGTERM while kubectl runs', () => {
  it('doctor --only kube: kubectl and its children are killed, exit 143, nothing left behind', async () => {
    const inventory = join(dir, 'certs.yml');
    writeFileSync(inventory, 'cluster_issuer_type: self-signed\n');
    const child = spawn(
      process.execPath,
      [BIN, 'doctor', '--only', 'kube', '--inventory', inventory, '--timeout', '60'],
      {
        env: {
          ...process.env,
          PATH: `${dir}:${process.env.PATH}`,
          CLOUDGATE_KUBECTL: '',
          KUBECONFIG: join(dir, 'none'),
          CI: 'true',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    await appears(pidFile);
    const kubectlPid = Number(readFileSync(pidFile, 'utf8'));

    child.kill('SIGTERM');
    const { code, signal } = await done;

    expect({ code, signal }).toEqual({ code: 143, signal: null });
    // Gone, or a zombie waiting for whoever adopted it to reap it: not running either way. A process
    // sent SIGKILL still shows as running until the kernel schedules its exit, which a loaded machine delays.
    await expect.poll(() => stateOf(kubectlPid), { timeout: 5_000 }).toMatch(/^Z?$/);
    await expect.poll(() => sleepersLeft().filter((s) => s !== 'Z'), { timeout: 5_000 }).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
  }, 30_000);
});
