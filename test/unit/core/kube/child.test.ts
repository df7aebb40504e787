/**
 * The stop-signal handler that kills a child's process group is in place before the child starts: a
 * SIGTERM that comes as soon as kubectl runs (before the line after spawn) must not end cloudgate by
 * the signal's default action, leaving kubectl's group running. spawn is the real one, watched.
 */
import * as childProcess from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';

const listenersAtSpawn: Record<string, number>[] = [];
const counts = () => Object.fromEntries(['SIGTERM', 'SIGINT', 'SIGHUP'].map((s) => [s, process.listenerCount(s)]));

vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof childProcess>();
  return {
    ...real,
    spawn: (...args: Parameters<typeof real.spawn>) => {
      listenersAtSpawn.push(counts());
      return real.spawn(...args);
    },
  };
});

const { runChild } = await import('../../../../src/core/kube/child.js');

describe('runChild and stop signals', () => {
  it('listens for SIGTERM, SIGINT and SIGHUP before the child starts, and stops listening after', async () => {
    const before = counts();
    const result = await runChild('sh', ['-c', 'exit 0'], { timeoutMs: 5000 });
    expect(result.exitCode).toBe(0);
    const [atSpawn] = listenersAtSpawn.splice(0);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) expect(atSpawn[signal]).toBe(before[signal] + 1);
    expect(counts()).toEqual(before);
  });

  it('stops listening when the child cannot be started at all', async () => {
    const before = counts();
    // A NUL byte in an argument: spawn itself throws.
    const result = await runChild('sh', ['-c', 'exit 0\0'], { timeoutMs: 5000 });
    expect(result.startError?.code).toBe('ERR_INVALID_ARG_VALUE');
    expect(counts()).toEqual(before);
  });
});
