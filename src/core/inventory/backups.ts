/**
 * Backups of replaced files: `<target>.<UTC stamp>[-n].bak` beside the target, mode 0600 (they may
 * hold secrets), the newest KEEP_BACKUPS kept.
 */
import { rmSync } from 'node:fs';
import { link, lstat, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { escapeRegExp } from '../escape.js';
import { cleanUpOnExit } from '../exit-cleanup.js';
import { tempPathFor, writeTemp, type Previous } from './new-files.js';
import { codeOf } from '../errors.js';

/** How many `.bak` copies of a file are kept; older ones are removed after a successful write. */
export const KEEP_BACKUPS = 5;
const MAX_BACKUP_NUMBER = 1000;

export function backupStamp(now: Date = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/**
 * Writes the previous version (or `replacement`, what the backup holds instead) into a new
 * `<target>.<stamp>[-n].bak`, mode 0600 (it may hold secrets). It is written whole under a temp name
 * first and then linked to its backup name, so a backup is complete or absent: a run stopped while
 * copying leaves no truncated backup that looks like a good one (the temp goes with the process).
 */
export async function writeBackup(target: string, previous: Previous, stamp: string, replacement?: string): Promise<string> {
  const temp = tempPathFor(target);
  const forget = cleanUpOnExit(() => rmSync(temp, { force: true }));
  try {
    await writeTemp(temp, replacement ?? previous, 0o600, previous.owner);
    // Numbered after every backup of the same second, not in the first free slot: a slot freed by the
    // pruning would make the newest backup look like the oldest.
    for (let n = await nextBackupNumber(target, stamp); ; n++) {
      const path = `${target}.${stamp}${n ? `-${n}` : ''}.bak`;
      // A thousand names of one second taken: someone plants them; stop rather than search on.
      if (n > MAX_BACKUP_NUMBER) throw Object.assign(new Error(`No free backup name for ${target} (${path} and those before it exist).`), { code: 'EEXIST' });
      try {
        await link(temp, path); // never replaces: a name taken since, or a planted link, is EEXIST
        return path;
      } catch (error) {
        if (codeOf(error) !== 'EEXIST') throw error;
      }
    }
  } finally {
    await unlink(temp).catch(() => undefined);
    forget();
  }
}

/** Past the highest `-n` among the backups of `target` taken in the second `stamp` (0 when there is none). */
async function nextBackupNumber(target: string, stamp: string): Promise<number> {
  const pattern = new RegExp(`^${escapeRegExp(basename(target))}\\.${stamp}(?:-(\\d+))?\\.bak$`);
  const taken = (await readdir(dirname(target)).catch((): string[] => []))
    .map((entry) => pattern.exec(entry))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1] ?? 0));
  return taken.length === 0 ? 0 : Math.max(...taken) + 1;
}

/** Keeps the newest KEEP_BACKUPS backups of `target` (by their time stamp), never removing `keep`. */
export async function pruneBackups(target: string, keep?: string): Promise<string[]> {
  const name = basename(target);
  const pattern = new RegExp(`^${escapeRegExp(name)}\\.(\\d{8}T\\d{6}Z)(?:-(\\d+))?\\.bak$`);
  const backups = (await readdir(dirname(target)).catch((): string[] => []))
    .map((entry) => ({ entry, match: pattern.exec(entry) }))
    .filter((b): b is { entry: string; match: RegExpExecArray } => b.match !== null)
    .map(({ entry, match }) => ({ path: join(dirname(target), entry), stamp: match[1], n: Number(match[2] ?? 0) }))
    .sort((a, b) => (a.stamp === b.stamp ? b.n - a.n : a.stamp < b.stamp ? 1 : -1));
  const removed: string[] = [];
  for (const old of backups.slice(KEEP_BACKUPS)) {
    if (old.path === keep) continue;
    const info = await lstat(old.path).catch(() => undefined);
    if (info?.isFile() && (await unlink(old.path).then(() => true, () => false))) removed.push(old.path);
  }
  return removed;
}

