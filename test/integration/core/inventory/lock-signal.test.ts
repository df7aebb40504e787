/**
 * A stopping signal while the inventory lock is being taken: the lock file has just been linked into
 * place and the run has not yet returned from taking it. The lock must go with the process (exit 143),
 * not stay behind for the next run to find. The signal is emitted in-process right after the real
 * link(2), and process.exit is replaced, so the test process stays up.
 */
import { existsSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const onLinked: { run?: (to: string) => void } = {};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  return {
    ...real,
    link: async (from: Parameters<typeof real.link>[0], to: Parameters<typeof real.link>[1]) => {
      await real.link(from, to);
      onLinked.run?.(String(to));
    },
  };
});

const { lockInventory } = await import('../../../../src/core/inventory/lock.js');

let dir: string;
let exit: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-lock-signal-'));
  exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
});
afterEach(async () => {
  onLinked.run = undefined;
  exit.mockRestore();
  await rm(dir, { recursive: true, force: true });
});

describe('SIGTERM while the inventory lock is being taken', () => {
  it('removes the lock just linked and exits 143', async () => {
    const linked: string[] = [];
    onLinked.run = (to) => {
      linked.push(to);
      process.emit('SIGTERM', 'SIGTERM');
    };
    const lock = await lockInventory(join(dir, 'certs.yml'));
    expect(linked).toEqual([lock.path]);
    expect(exit).toHaveBeenCalledWith(143);
    expect(existsSync(lock.path)).toBe(false);
    await lock.release();
  });
});
