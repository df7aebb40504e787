/**
 * One cloudgate run at a time writes an inventory. The lock is a file `<inventory>.lock` beside the
 * inventory (beside the file a linked inventory points to) holding the pid of its holder. It is made
 * complete under a temp name, then linked into place: link() fails when the name exists, so taking
 * the lock is exclusive and a lock file is never seen half written. The lock of a process that no
 * longer exists (killed) is taken over.
 *
 * The plan is made from the inventory as read before the lock; under the lock it is read again and,
 * when it changed in between (another run, an editor), nothing is written: the operator reviewed a
 * change of the old content, not of the new one.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, openSync, readSync, rmSync, unlinkSync } from 'node:fs';
import { link, mkdir, open, rename, rmdir, unlink } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { isProcessAlive, removeStaleTemps, tempPathFor } from './new-files.js';
import { LinkRefused, resolveWritePath } from './links.js';
import { cleanUpOnExit } from '../exit-cleanup.js';
import { UsageError, WriteError, codeOf, messageOf } from '../errors.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_EXCL } = constants;

export interface InventoryLock {
  /** The lock file. */
  path: string;
  release(): Promise<void>;
}

export function lockPathOf(target: string): string {
  return `${target}.lock`;
}

export async function lockInventory(inventoryPath: string): Promise<InventoryLock> {
  let target: string;
  try {
    target = (await resolveWritePath(inventoryPath)).path;
  } catch (error) {
    if (error instanceof LinkRefused) throw new WriteError(`${error.message} Nothing was written.`, error.advice);
    throw error;
  }
  const lockPath = lockPathOf(target);
  const createdDir = await mkdir(dirname(target), { recursive: true });
  await removeStaleTemps(target);
  // Also when the run is stopped by a signal (SIGTERM while it writes): the lock goes with the process.
  // Registered before the lock is taken, so that a signal while it is being taken finds it too.
  const forget = cleanUpOnExit(() => {
    if (holderSync(lockPath) === process.pid) unlinkSync(lockPath);
  });
  try {
    await takeLock(inventoryPath, target, lockPath);
  } catch (error) {
    forget();
    await removeEmptyFolders(dirname(target), createdDir);
    if (error instanceof UsageError) throw error;
    throw new WriteError(`Cannot take the lock ${lockPath} of the inventory ${inventoryPath}: ${codeOf(error) ?? messageOf(error)}; nothing was written.`,
      `Check that the folder ${dirname(target)} exists and is writable by you.`);
  }
  return {
    path: lockPath,
    async release() {
      forget();
      if ((await holder(lockPath)).pid === process.pid) await unlink(lockPath).catch(() => undefined);
      await removeEmptyFolders(dirname(target), createdDir);
    },
  };
}

/** Runs `fn` holding the inventory's lock. */
export async function withInventoryLock<T>(inventoryPath: string, fn: () => Promise<T>): Promise<T> {
  const lock = await lockInventory(inventoryPath);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

async function takeLock(inventoryPath: string, target: string, lockPath: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await linkNewLock(target, lockPath)) return;
    const current = await holder(lockPath);
    if (current.missing) continue; // released in between: try again
    if (current.pid === undefined) {
      throw new UsageError(`The lock file ${lockPath} of the inventory ${inventoryPath} names no process; nothing was written.`,
        `If no cloudgate run is active on this inventory, remove ${lockPath} and run again.`);
    }
    if (isProcessAlive(current.pid)) throw busy(current.pid, inventoryPath, lockPath);
    // Left by a run that was killed. Move it aside, and check that what was moved is that stale lock:
    // another run may have taken it over in between.
    const aside = tempPathFor(target);
    try {
      await rename(lockPath, aside);
    } catch {
      continue;
    }
    const moved = await holder(aside);
    if (moved.pid !== current.pid && moved.pid !== undefined) {
      await link(aside, lockPath).catch(() => undefined);
      await unlink(aside).catch(() => undefined);
      throw busy(moved.pid, inventoryPath, lockPath);
    }
    await unlink(aside).catch(() => undefined);
  }
  throw new UsageError(`Could not take the lock ${lockPath} of the inventory ${inventoryPath}; nothing was written.`,
    'Other cloudgate runs keep taking it: wait for them to finish and run again.');
}

/** Writes our pid into a new temp file and links it to the lock's name; false when the lock exists. */
async function linkNewLock(target: string, lockPath: string): Promise<boolean> {
  const temp = tempPathFor(target); // a temp name of the inventory: a killed run's one is removed as stale
  const forgetTemp = cleanUpOnExit(() => rmSync(temp, { force: true }));
  let handle;
  try {
    handle = await open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
  } catch (error) {
    forgetTemp();
    throw error;
  }
  try {
    await handle.chmod(0o644);
    await handle.writeFile(`${process.pid}\n`);
    await handle.sync();
    await handle.close();
    await link(temp, lockPath);
    return true;
  } catch (error) {
    await handle.close().catch(() => undefined);
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
    forgetTemp();
  }
}

function busy(pid: number, inventoryPath: string, lockPath: string): UsageError {
  return new UsageError(`another cloudgate run (pid ${pid}) holds ${inventoryPath} (lock file ${lockPath}); nothing was written.`,
    `Wait for that run to finish, then run again. If no cloudgate run is active, remove ${lockPath}.`);
}

async function holder(lockPath: string): Promise<{ pid?: number; missing?: boolean }> {
  let handle;
  try {
    handle = await open(lockPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    return codeOf(error) === 'ENOENT' ? { missing: true } : {};
  }
  try {
    if (!(await handle.stat()).isFile()) return {};
    const buffer = Buffer.alloc(32);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { pid: parsePid(buffer.subarray(0, bytesRead).toString('utf8')) };
  } finally {
    await handle.close();
  }
}

function holderSync(lockPath: string): number | undefined {
  try {
    const fd = openSync(lockPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const buffer = Buffer.alloc(32);
      return parsePid(buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8'));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function parsePid(text: string): number | undefined {
  const match = /^(\d{1,10})\n?$/.exec(text);
  const pid = match ? Number(match[1]) : 0;
  return pid > 0 ? pid : undefined;
}

/** A folder made only to hold the lock is removed again when nothing else was put in it. */
async function removeEmptyFolders(dir: string, createdDir: string | undefined): Promise<void> {
  if (!createdDir) return;
  for (let current = dir; ; current = dirname(current)) {
    if (await rmdir(current).then(() => false, () => true)) return;
    if (current === createdDir || relative(createdDir, current).startsWith('..') || !current.includes(sep)) return;
  }
}

/**
 * What the inventory held when it was read: a hash of its bytes, or "absent". Taken before the
 * plan reads the inventory, so that a change made between the two reads is seen as a change.
 */
export async function inventoryFingerprint(inventoryPath: string): Promise<string> {
  let handle;
  try {
    handle = await open(inventoryPath, O_RDONLY | O_NONBLOCK);
  } catch (error) {
    return codeOf(error) === 'ENOENT' ? 'absent' : `unreadable:${codeOf(error)}`;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return `not-a-file:${info.mode}`;
    // In chunks: a large inventory is not held twice just to be hashed.
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(1 << 16);
    for (let read; (read = (await handle.read(chunk, 0, chunk.length, null)).bytesRead) > 0;) hash.update(chunk.subarray(0, read));
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

/** Under the lock: refuses (exit 2, nothing written) when the inventory is no longer what the plan was made from. */
export async function assertInventoryUnchanged(inventoryPath: string, fingerprint: string): Promise<void> {
  if ((await inventoryFingerprint(inventoryPath)) === fingerprint) return;
  throw new UsageError(`The inventory ${inventoryPath} changed since cloudgate read it (another run or an editor); nothing was written.`,
    'Run cloudgate again: it reads the inventory anew and shows the change it would make.');
}
