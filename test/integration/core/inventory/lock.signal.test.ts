/**
 * A stopping signal while the inventory lock is being taken: its temp file just created, or the lock
 * just linked into place before the run has returned from taking it. Both must go with the process
 * (exit 143), not stay behind for the next run to find. The signal is emitted in-process right after
 * the real open(2) or link(2), and process.exit is replaced, so the test process stays up; what the
 * folder holds once the signal is handled is what a process ended by it would leave.
 */
import { existsSync, readdirSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const onLinked: { run?: (to: string) => void } = {};
const onOpened: { run?: (path: string) => void } = {};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  return {
    ...real,
    link: async (from: Parameters<typeof real.link>[0], to: Parameters<typeof real.link>[1]) => {
      await real.link(from, to);
      onLinked.run?.(String(to));
    },
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      onOpened.run?.(String(args[0]));
      return handle;
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
  onOpened.run = undefined;
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

  it('removes the lock\'s temp file just created and exits 143', async () => {
    const seen: { temps: string[]; leftAtExit?: string[] } = { temps: [] };
    onOpened.run = (path) => {
      if (!path.endsWith('.tmp') || seen.temps.length > 0) return;
      seen.temps.push(path);
      process.emit('SIGTERM', 'SIGTERM');
      seen.leftAtExit = readdirSync(dir);
    };
    const lock = await lockInventory(join(dir, 'certs.yml')).catch(() => undefined);
    expect(seen.temps).toHaveLength(1);
    expect(exit).toHaveBeenCalledWith(143);
    expect(seen.leftAtExit).toEqual([]);
    await lock?.release();
  });
});
