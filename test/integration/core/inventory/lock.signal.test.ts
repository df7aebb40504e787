/**
 * A stopping signal while the inventory lock is being taken: its temp file just created, or the lock
 * just linked into place before the run has returned from taking it. Both must go with the process
 * (exit 143), not stay behind for the next run to find. The signal is emitted right after the real
 * open(2) or link(2) (test/helpers/stopped-run.ts says how).
 */
import { existsSync } from 'node:fs';
import type * as fsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stoppedRunFixture } from '../../../helpers/stopped-run.js';

const after: { linked?: (to: string) => void; opened?: (path: string) => void } = {};

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsPromises>();
  return {
    ...real,
    link: async (from: Parameters<typeof real.link>[0], to: Parameters<typeof real.link>[1]) => {
      await real.link(from, to);
      after.linked?.(String(to));
    },
    open: async (...args: Parameters<typeof real.open>) => {
      const handle = await real.open(...args);
      after.opened?.(String(args[0]));
      return handle;
    },
  };
});

const { lockInventory } = await import('../../../../src/core/inventory/lock.js');
const { shownText } = await import('../../../../src/core/inventory/owned-path.js');

const run = stoppedRunFixture('cloudgate-lock-signal-');
afterEach(() => {
  after.linked = undefined;
  after.opened = undefined;
});

describe('SIGTERM while the inventory lock is being taken', () => {
  it('removes the lock just linked and exits 143', async () => {
    const linked: string[] = [];
    let leftAtExit: string[] | undefined;
    after.linked = (to) => {
      linked.push(shownText(to)); // the lock is linked inside its checked folder, through /proc/self/fd
      leftAtExit = run.stopAndLook();
    };
    const lock = await lockInventory(join(run.dir, 'certs.yml'));
    expect(linked).toEqual([lock.path]);
    expect(run.exit).toHaveBeenCalledWith(143);
    expect(leftAtExit).toEqual([]);
    expect(existsSync(lock.path)).toBe(false);
    await lock.release();
  });

  it("removes the lock's temp file just created and exits 143", async () => {
    const temps: string[] = [];
    let leftAtExit: string[] | undefined;
    after.opened = (path) => {
      if (!path.endsWith('.tmp') || temps.length > 0) return;
      temps.push(path);
      leftAtExit = run.stopAndLook();
    };
    const lock = await lockInventory(join(run.dir, 'certs.yml')).catch(() => undefined);
    expect(temps).toHaveLength(1);
    expect(run.exit).toHaveBeenCalledWith(143);
    expect(leftAtExit).toEqual([]);
    await lock?.release();
  });
});
