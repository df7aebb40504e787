/**
 * A stopping signal (SIGTERM from an orchestrator or kill) during a run: the inventory lock and the
 * children go, then the run exits 128 + the signal's number. The signal is emitted in-process and
 * process.exit is replaced, so the test process itself stays up.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanUpOnExit } from '../../../src/core/exit-cleanup.js';
import { lockInventory } from '../../../src/core/inventory/lock.js';
import { stoppedRunFixture } from '../../helpers/stopped-run.js';

const run = stoppedRunFixture('cloudgate-exit-');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a stopping signal while the inventory lock is held', () => {
  it('SIGTERM removes the lock and exits 143', async () => {
    const lock = await lockInventory(join(run.dir, 'certs.yml'));
    expect(existsSync(lock.path)).toBe(true);

    process.emit('SIGTERM', 'SIGTERM');

    expect(existsSync(lock.path)).toBe(false);
    expect(run.exit).toHaveBeenCalledWith(143);
    await lock.release();
  });

  it('SIGHUP exits 129', async () => {
    const forget = cleanUpOnExit(() => undefined);
    process.emit('SIGHUP', 'SIGHUP');
    expect(run.exit).toHaveBeenCalledWith(129);
    forget();
  });
});

describe('a signal someone else handles (serve stops cleanly, doctor reports what finished)', () => {
  it('kills the children at once but leaves the lock and the exit to that handler', async () => {
    const handled: string[] = [];
    const handler = () => handled.push('serve');
    process.once('SIGTERM', handler);
    const lock = await lockInventory(join(run.dir, 'certs.yml'));
    const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    const gone = new Promise((resolve) => child.once('exit', resolve));
    const forgetChild = cleanUpOnExit(() => process.kill(-child.pid!, 'SIGKILL'), { onSignal: true });
    try {
      process.emit('SIGTERM', 'SIGTERM');
      await gone;
      expect(alive(child.pid!)).toBe(false);
      expect(handled).toEqual(['serve']);
      expect(run.exit).not.toHaveBeenCalled();
      expect(existsSync(lock.path)).toBe(true);
    } finally {
      forgetChild();
      process.off('SIGTERM', handler);
      await lock.release();
    }
    expect(existsSync(lock.path)).toBe(false);
  });
});
