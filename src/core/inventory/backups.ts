/**
 * Backups of replaced files: `<target>.<UTC stamp>[-n].bak` beside the target, mode 0600 (they may
 * hold secrets), the newest KEEP_BACKUPS kept. Only the caller's own backups count: a file another
 * user put there under a backup's name (a future date, a planted series of numbers) is neither counted,
 * nor pruned, nor able to keep a backup from being made.
 */
import { randomInt } from 'node:crypto';
import { lstatSync, rmSync, unlinkSync } from 'node:fs';
import { link, lstat, readdir, unlink } from 'node:fs/promises';
import { escapeRegExp } from '../escape.js';
import { cleanUpOnExit } from '../exit-cleanup.js';
import { tempNameFor, writeTemp, type Previous } from './new-files.js';
import { codeOf } from '../errors.js';
import type { CheckedFolder } from './owned-path.js';

/** How many `.bak` copies of a file are kept; older ones are removed after a successful write. */
export const KEEP_BACKUPS = 5;
const MAX_BACKUP_NUMBER = 1000;

export function backupStamp(now: Date = new Date()): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

export interface Backup {
  /** Its name in the folder. */
  name: string;
  /** Its real path, for messages. */
  path: string;
}

/**
 * Writes the previous version (or `replacement`, what the backup holds instead) into a new
 * `<name>.<stamp>[-n].bak` in `folder`, mode 0600 (it may hold secrets). It is written whole under a
 * temp name first and then linked to its backup name, so a backup is complete or absent: a run stopped
 * while copying leaves no truncated backup that looks like a good one (the temp goes with the process,
 * and so does a backup name linked while the process was being stopped).
 */
export async function writeBackup(
  folder: CheckedFolder,
  name: string,
  previous: Previous,
  stamp: string,
  replacement?: string,
  /** Told the backup as soon as it exists, before anything else is awaited: a signal's cleanup then knows it. */
  made?: (backup: Backup) => void,
): Promise<Backup> {
  const temp = tempNameFor(name);
  let ino: number | undefined;
  let trying: string | undefined;
  const forget = cleanUpOnExit(() => {
    rmSync(folder.at(temp), { force: true });
    // After the temp is gone a link in flight fails; one that was made before is removed here.
    if (trying && ino !== undefined && sameInode(folder.at(trying), ino)) unlinkSync(folder.at(trying));
  });
  try {
    ({ ino } = await writeTemp(folder, temp, replacement ?? previous, 0o600, previous.gid));
    // Numbered after every backup of the same second, not in the first free slot: a slot freed by the
    // pruning would make the newest backup look like the oldest.
    let n = await nextBackupNumber(folder, name, stamp);
    for (let tries = 0; ; tries++) {
      // Names taken by files that are not the caller's backups (planted): past a thousand, a random number.
      if (tries > MAX_BACKUP_NUMBER) n = randomInt(MAX_BACKUP_NUMBER, 1_000_000_000);
      trying = `${name}.${stamp}${n ? `-${n}` : ''}.bak`;
      try {
        await link(folder.at(temp), folder.at(trying)); // never replaces: a name taken since, or a planted link, is EEXIST
        const backup = { name: trying, path: folder.shown(trying) };
        made?.(backup);
        trying = undefined;
        return backup;
      } catch (error) {
        if (codeOf(error) !== 'EEXIST' || tries > 2 * MAX_BACKUP_NUMBER) throw error;
        n++;
      }
    }
  } finally {
    await unlink(folder.at(temp)).catch(() => undefined);
    forget();
  }
}

function sameInode(path: string, ino: number): boolean {
  try {
    return lstatSync(path).ino === ino;
  } catch {
    return false;
  }
}

interface Found {
  name: string;
  stamp: string;
  n: number;
}

/** The caller's own backups of `name` in `folder` (a file, the caller's), newest first. */
async function ownBackups(folder: CheckedFolder, name: string, stamp = '\\d{8}T\\d{6}Z'): Promise<Found[]> {
  const pattern = new RegExp(`^${escapeRegExp(name)}\\.(${stamp})(?:-(\\d+))?\\.bak$`);
  const found: Found[] = [];
  for (const entry of await readdir(folder.at()).catch((): string[] => [])) {
    const match = pattern.exec(entry);
    if (!match) continue;
    const info = await lstat(folder.at(entry)).catch(() => undefined);
    if (info?.isFile() && folder.owns(info)) found.push({ name: entry, stamp: match[1], n: Number(match[2] ?? 0) });
  }
  return found.sort((a, b) => (a.stamp === b.stamp ? b.n - a.n : a.stamp < b.stamp ? 1 : -1));
}

/** Past the highest `-n` among the caller's backups of `name` taken in the second `stamp` (0 when there is none). */
async function nextBackupNumber(folder: CheckedFolder, name: string, stamp: string): Promise<number> {
  const taken = await ownBackups(folder, name, escapeRegExp(stamp));
  return taken.length === 0 ? 0 : Math.min(taken[0].n + 1, MAX_BACKUP_NUMBER);
}

/**
 * Keeps the newest KEEP_BACKUPS of the caller's backups of `name` (by their time stamp), never
 * removing `keep`; returns the paths removed. Backups dated later than `now` (a clock set back, or
 * copied in) are kept but do not count among the newest: they cannot push the real ones out.
 */
export async function pruneBackups(
  folder: CheckedFolder,
  name: string,
  keep?: string,
  now: Date = new Date(),
): Promise<string[]> {
  const latest = backupStamp(now);
  const backups = (await ownBackups(folder, name)).filter((b) => b.stamp <= latest);
  const removed: string[] = [];
  for (const old of backups.slice(KEEP_BACKUPS)) {
    if (old.name === keep) continue;
    const info = await lstat(folder.at(old.name)).catch(() => undefined);
    if (
      info?.isFile() &&
      folder.owns(info) &&
      (await unlink(folder.at(old.name)).then(
        () => true,
        () => false,
      ))
    )
      removed.push(folder.shown(old.name));
  }
  return removed;
}
