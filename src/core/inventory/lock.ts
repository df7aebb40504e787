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
import { link, lstat, open, rename, rmdir, unlink } from 'node:fs/promises';
import { isProcessAlive, removeStaleTemps, tempNameFor } from './new-files.js';
import { checkPath, PathRefused, shownText, type CheckedFolder } from './owned-path.js';
import { cleanUpOnExit } from '../exit-cleanup.js';
import { UsageError, WriteError, codeOf, messageOf } from '../errors.js';
import { userName } from './users.js';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_EXCL } = constants;

export interface InventoryLock {
  /** The lock file. */
  path: string;
  release(): Promise<void>;
}

export function lockPathOf(target: string): string {
  return `${target}.lock`;
}

/**
 * Takes the lock of the inventory at `inventoryPath` (beside the file its links lead to), in the folder
 * the ownership rule checked (owned-path.ts), held open until release: the lock is made, read and
 * removed relative to that folder.
 */
export async function lockInventory(inventoryPath: string): Promise<InventoryLock> {
  let checked;
  try {
    checked = checkPath(inventoryPath, { purpose: 'write', createFolders: true });
  } catch (error) {
    if (error instanceof PathRefused) throw new WriteError(`${error.message} Nothing was written.`, error.advice);
    throw new WriteError(
      `Cannot take the lock of the inventory ${inventoryPath}: ${shownText(codeOf(error) ?? messageOf(error))}; nothing was written.`,
      'Check that its folder is writable by you.',
    );
  }
  const { folder, name, createdFolders } = checked;
  const lockName = `${name}.lock`;
  const lockPath = folder.shown(lockName);
  // Also when the run is stopped by a signal (SIGTERM while it writes): the lock goes with the process.
  // Registered before the lock is taken, so that a signal while it is being taken finds it too.
  const forget = cleanUpOnExit(() => {
    if (holderSync(folder.at(lockName)) === process.pid) unlinkSync(folder.at(lockName));
  });
  const done = async () => {
    forget();
    await removeCreatedFolders(createdFolders);
    folder.close();
  };
  try {
    await removeStaleTemps(folder, name);
    await takeLock(inventoryPath, folder, name, lockName);
  } catch (error) {
    await done();
    if (error instanceof UsageError) throw error;
    throw new WriteError(
      `Cannot take the lock ${lockPath} of the inventory ${inventoryPath}: ${shownText(codeOf(error) ?? messageOf(error))}; nothing was written.`,
      `Check that the folder ${folder.path} exists and is writable by you.`,
    );
  }
  return {
    path: lockPath,
    async release() {
      // Removed (at once, nothing awaited) before the signal's cleanup is forgotten: a signal in between still finds it.
      try {
        if (holderSync(folder.at(lockName)) === process.pid) unlinkSync(folder.at(lockName));
      } catch {
        // Gone already.
      }
      await done();
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

async function takeLock(inventoryPath: string, folder: CheckedFolder, name: string, lockName: string): Promise<void> {
  const lockPath = folder.shown(lockName);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await linkNewLock(folder, name, lockName)) return;
    const current = await holder(folder.at(lockName));
    if (current.missing) continue; // released in between: try again
    if (current.owner !== undefined && current.owner !== folder.uid) {
      // Only the caller's own stale lock is taken over: another user's file is never removed.
      throw new UsageError(
        `The lock file ${lockPath} of the inventory ${inventoryPath} belongs to ${userName(current.owner)}, not to you; nothing was written.`,
        `Check who made it; if no cloudgate run of theirs is active, remove ${lockPath} and run again.`,
      );
    }
    if (current.pid === undefined) {
      throw new UsageError(
        `The lock file ${lockPath} of the inventory ${inventoryPath} names no process; nothing was written.`,
        `If no cloudgate run is active on this inventory, remove ${lockPath} and run again.`,
      );
    }
    if (isProcessAlive(current.pid)) throw busy(current.pid, inventoryPath, lockPath);
    // Left by a run that was killed. Move it aside, and check that what was moved is that stale lock:
    // another run may have taken it over in between.
    const aside = tempNameFor(name);
    const forgetAside = cleanUpOnExit(() => rmSync(folder.at(aside), { force: true }));
    try {
      try {
        await rename(folder.at(lockName), folder.at(aside));
      } catch {
        continue;
      }
      const moved = await holder(folder.at(aside));
      if (moved.pid !== current.pid && moved.pid !== undefined) {
        await link(folder.at(aside), folder.at(lockName)).catch(() => undefined);
        throw busy(moved.pid, inventoryPath, lockPath);
      }
    } finally {
      await unlink(folder.at(aside)).catch(() => undefined);
      forgetAside();
    }
  }
  throw new UsageError(
    `Could not take the lock ${lockPath} of the inventory ${inventoryPath}; nothing was written.`,
    'Other cloudgate runs keep taking it: wait for them to finish and run again.',
  );
}

/** Writes our pid into a new temp file and links it to the lock's name; false when the lock exists. */
async function linkNewLock(folder: CheckedFolder, name: string, lockName: string): Promise<boolean> {
  const temp = tempNameFor(name); // a temp name of the inventory: a killed run's one is removed as stale
  const forgetTemp = cleanUpOnExit(() => rmSync(folder.at(temp), { force: true }));
  let handle;
  try {
    handle = await open(folder.at(temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
  } catch (error) {
    forgetTemp();
    throw error;
  }
  try {
    await handle.chmod(0o644);
    await handle.writeFile(`${process.pid}\n`);
    await handle.sync();
    await handle.close();
    await link(folder.at(temp), folder.at(lockName));
    return true;
  } catch (error) {
    await handle.close().catch(() => undefined);
    if (codeOf(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(folder.at(temp)).catch(() => undefined);
    forgetTemp();
  }
}

function busy(pid: number, inventoryPath: string, lockPath: string): UsageError {
  return new UsageError(
    `another cloudgate run (pid ${pid}) holds ${inventoryPath} (lock file ${lockPath}); nothing was written.`,
    `Wait for that run to finish, then run again. If no cloudgate run is active, remove ${lockPath}.`,
  );
}

async function holder(lockPath: string): Promise<{ pid?: number; missing?: boolean; owner?: number }> {
  let handle;
  try {
    handle = await open(lockPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return { missing: true };
    const info = await lstat(lockPath).catch(() => undefined);
    return info ? { owner: info.uid } : {};
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { owner: info.uid };
    const buffer = Buffer.alloc(32);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { pid: parsePid(buffer.subarray(0, bytesRead).toString('utf8')), owner: info.uid };
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

/** Folders made only to hold the lock are removed again when nothing else was put in them (innermost first). */
async function removeCreatedFolders(created: string[]): Promise<void> {
  for (const dir of [...created].reverse())
    if (
      await rmdir(dir).then(
        () => false,
        () => true,
      )
    )
      return;
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
    for (let read; (read = (await handle.read(chunk, 0, chunk.length, null)).bytesRead) > 0;)
      hash.update(chunk.subarray(0, read));
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

/** Under the lock: refuses (exit 2, nothing written) when the inventory is no longer what the plan was made from. */
export async function assertInventoryUnchanged(inventoryPath: string, fingerprint: string): Promise<void> {
  if ((await inventoryFingerprint(inventoryPath)) === fingerprint) return;
  throw new UsageError(
    `The inventory ${inventoryPath} changed since cloudgate read it (another run or an editor); nothing was written.`,
    'Run cloudgate again: it reads the inventory anew and shows the change it would make.',
  );
}
