import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runChild } from '../../../../src/core/kube/child.js';
import { waitUntil } from '../../../helpers/wait.js';

const marker = () => 2000 + Math.floor(Math.random() * 7000);
const left = (seconds: number) =>
  execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.trim() === `sleep ${seconds}`);
/** The killed processes disappear once the kernel has reaped them: a bounded wait, failing with what is left. */
const gone = (seconds: number) =>
  waitUntil(`sleep ${seconds} to be gone`, () => left(seconds).length === 0, {
    timeoutMs: 2000,
    lastSeen: () => left(seconds).join('\n'),
  });

describe('runChild', () => {
  it('returns output and exit code', async () => {
    const r = await runChild('sh', ['-c', 'cat; echo err >&2; exit 3'], { input: 'in', timeoutMs: 5000 });
    expect(r).toMatchObject({ exitCode: 3, stdout: 'in', stderr: 'err\n', timedOut: false, cancelled: false });
  });

  it('kills the whole group at the deadline, a grandchild holding the output included', async () => {
    const s = marker();
    const r = await runChild('sh', ['-c', `sleep ${s} & wait`], { timeoutMs: 300 });
    expect(r).toMatchObject({ timedOut: true, exitCode: -1 });
    await gone(s);
  });

  it('kills what a child left running when it exits', async () => {
    const s = marker();
    // Returned when the shell exited, not when its `sleep` would have: that one is still running, then killed.
    const r = await runChild('sh', ['-c', `sleep ${s} & echo started`], { timeoutMs: 10_000 });
    expect(r).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
    await gone(s);
  });

  it('is cancelled by its signal, with its group', async () => {
    const s = marker();
    const abort = new AbortController();
    const running = runChild('sh', ['-c', `sleep ${s} & wait`], { timeoutMs: 10_000, signal: abort.signal });
    // Cancelled once the grandchild runs, so that there is a group to stop.
    await waitUntil(`sleep ${s} to start`, () => left(s).length === 1);
    abort.abort();
    const r = await running;
    expect(r.cancelled).toBe(true);
    await gone(s);
  });

  it('says why a program could not start', async () => {
    const r = await runChild('/nonexistent/program', [], { timeoutMs: 1000 });
    expect(['ENOENT', 'ENOTDIR']).toContain(r.startError?.code);
  });
});

describe('the environment of kubectl', () => {
  it("holds what kubectl needs and none of cloudgate's secrets", async () => {
    const r = await runChild('sh', ['-c', 'env'], {
      timeoutMs: 5000,
      env: {
        PATH: process.env.PATH,
        KUBECONFIG: '/tmp/k',
        OS_PASSWORD: 'leak-1',
        CLOUDGATE_ACME_EAB_SECRET: 'leak-2',
        OS_CLIENT_SECRET: 'leak-3',
      },
    });
    expect(r.stdout).toContain('KUBECONFIG=/tmp/k');
    expect(r.stdout).not.toMatch(/leak-/);
  });
});
