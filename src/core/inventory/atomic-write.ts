/**
 * All-or-nothing writes of several files (the inventory and its TLS Secret manifest, say), as one
 * transaction:
 *
 * 1. every path is checked by the ownership rule (owned-path.ts) and its folder kept open; every new
 *    version is written whole to a temp file in that folder;
 * 2. each previous version is backed up (a copy, `.bak`) and given a second, hidden name (a hard link:
 *    no disk space needed) from which it can be put back;
 * 3. the temps are renamed into place, one after the other;
 * 4. only then are the hidden names dropped and old backups pruned.
 *
 * A failure (a full disk, a refused path) or a stopping signal before step 4 puts back every file
 * already replaced, by renaming its hidden name over it (which cannot fail for want of space), removes
 * what this write made, and says what the disk holds. A backup is never removed before the new state is
 * complete, except the one of a file put back to the very version it holds.
 *
 * Everything happens relative to the checked folders, so a folder swapped for a link after the check
 * cannot redirect a write. Temps and backups are made exclusively, never through a link (new-files.ts);
 * a target that is a link is written through (the link is kept) only when the rule allows the link.
 */
import { constants, lstatSync, renameSync, rmdirSync, unlinkSync } from 'node:fs';
import { link, lstat, open, rename, rmdir, unlink } from 'node:fs/promises';
import { cleanUpOnExit } from '../exit-cleanup.js';
import { codeOf, messageOf } from '../errors.js';
import { memberOf, textOf } from '../records.js';
import { pruneBackups, writeBackup, backupStamp, type Backup } from './backups.js';
import { describeLinks } from './links.js';
import { checkPath, MissingFolder, PathRefused, shownText, type CheckedPath, type FollowedLink } from './owned-path.js';
import { openPrevious, removeStaleTemps, tempNameFor, writeTemp, type Previous } from './new-files.js';

export { KEEP_BACKUPS, backupStamp, pruneBackups } from './backups.js';
export { isProcessAlive, removeStaleTemps, tempPathFor } from './new-files.js';
export { LinkRefused, PathRefused } from './owned-path.js';

const { O_RDONLY, O_DIRECTORY } = constants;

export interface FileToWrite {
  path: string;
  content: string;
  /** Permission bits (0o600 for files that hold a secret). */
  mode: number;
  holdsSecret: boolean;
  /** What the file is, for the review ("inventory", "TLS Secret manifest"). */
  description: string;
  /**
   * What the backup of the previous version holds instead of its bytes: the previous version with its
   * plain secrets vaulted, when this write vaults them (no plaintext is written then, a backup included).
   */
  backupContent?: string;
  /** The file itself is never written through a link, even one the link rule allows (a cache). */
  noLink?: boolean;
}

export interface WrittenFile {
  path: string;
  mode: number;
  description: string;
  /** The copy of the previous version, when there was one. */
  backupPath?: string;
  /** `path` went through links: this is the file they point to, which was replaced (the links are kept). */
  linkTarget?: string;
  /** The links the write went through, with their owners. */
  links?: FollowedLink[];
}

export interface WriteOptions {
  /** Keep a `.bak` copy of each replaced file (default true). */
  backup?: boolean;
  /** Create the missing folders of a target (default true); without, a missing folder is an error naming it. */
  createFolders?: boolean;
  /** The mode of folders it creates (default 0755, less the umask). */
  folderMode?: number;
}

/** `Wrote` line of a written file, as the commands print it. */
export function describeWritten(file: WrittenFile): string {
  const links = file.links?.length ? `; link ${describeLinks(file.links)}` : '';
  return [
    `${file.path} (mode ${file.mode.toString(8).padStart(4, '0')})`,
    file.linkTarget ? `; written through the link to ${file.linkTarget} (the link is kept${links})` : '',
    file.backupPath ? `; previous version saved as ${file.backupPath}` : '',
  ].join('');
}

async function syncFolder(at: string): Promise<void> {
  const handle = await open(at, O_RDONLY | O_DIRECTORY).catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

interface Staged {
  file: FileToWrite;
  checked: CheckedPath;
  /** Its temp's name, chosen before the file is made (a signal's cleanup looks for it). */
  temp?: string;
  tempIno?: number;
  previous?: Previous;
  backup?: Backup;
  /** The previous version's second name, from which a rollback puts it back. */
  undo?: string;
  renamed?: boolean;
  /** Where it stands after a failure, for the message. */
  state?: string;
}

/** Nothing was written; `advice` says what to do when the cause is known (a refused path, a missing folder). */
export class NothingWritten extends Error {
  constructor(
    message: string,
    readonly advice?: string,
    /** Some file could not be put back: the disk holds part of the new state (the message says which). */
    readonly partial = false,
  ) {
    super(message);
    this.name = 'NothingWritten';
  }
}

/** Names of the same file: the target and its hidden undo name hold one inode. */
function inoAt(path: string): number | undefined {
  try {
    return lstatSync(path).ino;
  } catch {
    return undefined;
  }
}

/**
 * What a stopping signal does mid-write (synchronous: it runs as the process ends). Before the
 * commit, every replaced file is put back from its undo name; after it, only the undo names go.
 */
function undoOnSignal(staged: Staged[], committed: () => boolean, created: () => CheckedPath[]): void {
  if (committed()) {
    for (const s of staged) if (s.undo) rmQuiet(s.checked.folder.at(s.undo));
    return;
  }
  for (const s of [...staged].reverse()) {
    const { folder, name } = s.checked;
    // Removing the temp settles a rename still in flight: after it, the rename either happened or never will.
    let renamed = s.renamed === true;
    if (s.temp) {
      try {
        unlinkSync(folder.at(s.temp));
        renamed = false;
      } catch {
        renamed = s.tempIno !== undefined && inoAt(folder.at(name)) === s.tempIno;
      }
    }
    if (renamed) {
      try {
        if (s.undo) renameSync(folder.at(s.undo), folder.at(name));
        else if (inoAt(folder.at(name)) === s.tempIno) unlinkSync(folder.at(name));
      } catch {
        continue; // not put back: its backup stays
      }
    } else if (s.undo) {
      rmQuiet(folder.at(s.undo));
    }
    if (s.backup) rmQuiet(folder.at(s.backup.name));
  }
  for (const c of created()) {
    for (const dir of [...c.createdFolders].reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        break;
      }
    }
  }
}

function rmQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

export async function writeFilesAtomically(
  files: FileToWrite[],
  now: Date = new Date(),
  options: WriteOptions = {},
): Promise<WrittenFile[]> {
  const staged: Staged[] = [];
  const checkedPaths: CheckedPath[] = [];
  let committed = false;
  // Stopped by a signal mid-write: what was replaced is put back, what was made goes.
  const forgetSignal = cleanUpOnExit(() =>
    undoOnSignal(
      staged,
      () => committed,
      () => checkedPaths,
    ),
  );
  const closeAll = async () => {
    await Promise.all(
      staged.map(async (s) => {
        await s.previous?.handle.close().catch(() => undefined);
      }),
    );
    for (const c of checkedPaths) c.folder.close();
  };
  try {
    try {
      for (const file of files) {
        const checked = checkPath(file.path, {
          purpose: 'write',
          noFinalLink: file.noLink,
          createFolders: options.createFolders !== false,
          folderMode: options.folderMode,
        });
        checkedPaths.push(checked);
        const { folder, name, existing } = checked;
        if (existing?.isDirectory())
          throw Object.assign(new Error(`${checked.path} is a folder`), { code: 'EISDIR', path: checked.path });
        await removeStaleTemps(folder, name);
        const entry: Staged = { file, checked, previous: await openPrevious(folder, name, existing) };
        staged.push(entry);
        entry.temp = tempNameFor(name);
        entry.tempIno = (await writeTemp(folder, entry.temp, file.content, file.mode, entry.previous?.gid)).ino;
      }
      const stamp = backupStamp(now);
      for (const s of staged) {
        if (!s.previous) continue;
        const { folder, name } = s.checked;
        if (options.backup !== false)
          await writeBackup(folder, name, s.previous, stamp, s.file.backupContent, (backup) => {
            s.backup = backup;
          });
        s.undo = tempNameFor(name);
        await link(folder.at(name), folder.at(s.undo));
        // The name must still hold the version the backup copied (a swap in a trusted shared folder).
        if ((await lstat(folder.at(s.undo))).ino !== s.previous.ino)
          throw Object.assign(new Error(`${s.checked.path} changed while it was being written`), {
            code: 'ECHANGED',
            path: s.checked.path,
          });
      }
    } catch (error) {
      await undo(staged, checkedPaths);
      throw failure(staged, error);
    }

    try {
      for (const s of staged) {
        const { folder, name } = s.checked;
        if (!s.temp) throw new Error(`no temp was staged for ${s.checked.path}`);
        await rename(folder.at(s.temp), folder.at(name));
        s.renamed = true;
        s.temp = undefined;
        await syncFolder(folder.at());
      }
      committed = true;
    } catch (error) {
      await undo(staged, checkedPaths);
      throw failure(staged, error);
    }
    for (const s of staged) if (s.undo) await unlink(s.checked.folder.at(s.undo)).catch(() => undefined);
    for (const s of staged) s.undo = undefined;
    // Old backups go only once the new state is complete, the folders still open.
    for (const s of staged)
      if (s.backup) await pruneBackups(s.checked.folder, s.checked.name, s.backup.name, now).catch(() => []);
  } finally {
    forgetSignal();
    await closeAll();
  }

  return staged.map(({ file, checked, backup }) => ({
    path: file.path,
    mode: file.mode,
    description: file.description,
    ...(backup ? { backupPath: backup.path } : {}),
    ...(checked.links.length > 0 ? { linkTarget: checked.path, links: checked.links } : {}),
  }));
}

/**
 * Puts back what the renames replaced (from each undo name), removes what this write made, and notes
 * in each entry where its file stands now.
 */
async function undo(staged: Staged[], checkedPaths: CheckedPath[]): Promise<void> {
  for (const s of [...staged].reverse()) {
    const { folder, name } = s.checked;
    if (s.temp) await unlink(folder.at(s.temp)).catch(() => undefined);
    let restored = true;
    if (s.renamed) {
      restored = s.undo
        ? await rename(folder.at(s.undo), folder.at(name)).then(
            () => true,
            () => false,
          )
        : await unlink(folder.at(name)).then(
            () => true,
            () => false,
          );
      if (restored) s.undo = undefined;
      s.state = restored
        ? s.previous
          ? 'put back to its previous version'
          : 'removed again (it was new)'
        : `holds the NEW version; the previous one is kept as ${s.backup?.path ?? folder.shown(s.undo ?? name)}`;
    } else {
      s.state = s.previous ? 'unchanged' : 'not created';
    }
    // Not put back: its backup holds the previous version, the hidden name is dropped; without a backup it stays, named below.
    if (s.undo && (restored || s.backup)) {
      await unlink(folder.at(s.undo)).catch(() => undefined);
      s.undo = undefined;
    }
    // Its backup holds what the file holds again: no longer needed. Kept when the file was not put back.
    if (s.backup && restored) {
      await unlink(folder.at(s.backup.name)).catch(() => undefined);
      s.backup = undefined;
    }
  }
  for (const c of checkedPaths) {
    for (const dir of [...c.createdFolders].reverse())
      if (
        await rmdir(dir).then(
          () => false,
          () => true,
        )
      )
        break;
  }
}

/** The error of a failed write: its cause, with advice when known, and what the disk holds when some of it changed. */
function failure(staged: Staged[], error: unknown): NothingWritten {
  const cause = causeOf(error);
  const advice =
    error instanceof PathRefused
      ? error.advice
      : error instanceof MissingFolder
        ? `Create the folder first (mkdir -p ${error.folder}), or give a path in an existing folder.`
        : undefined;
  const changed = staged.filter((s) => s.renamed);
  if (changed.length === 0) return new NothingWritten(`Nothing was written: ${cause}`, advice);
  const partial = changed.some((s) => s.state?.startsWith('holds the NEW'));
  const states = staged.map((s) => `the ${s.file.description} ${s.checked.path} ${s.state ?? 'unchanged'}`).join('; ');
  return partial
    ? new NothingWritten(
        `The write failed and could not be undone in full: ${cause}. Now: ${states}.`,
        'Check the files named above (run cloudgate again to see the difference it would make), and make room on the disk.',
        true,
      )
    : new NothingWritten(`Nothing was written (${states}): ${cause}`, advice);
}

function causeOf(error: unknown): string {
  if (error instanceof PathRefused) return error.message;
  if (error instanceof MissingFolder) return `${error.message} (cloudgate creates no folder for this file)`;
  const code = codeOf(error);
  const path = textOf(memberOf(error, 'path'));
  if (code === 'ECHANGED' || code === 'ENOTFILE') return messageOf(error);
  return shownText(code && path ? `${code} on ${path}` : messageOf(error));
}

/**
 * Removes `path` when the ownership rule allows writing there and the file is the caller's own (a
 * file of another user is never deleted); true when it was removed.
 */
export async function removeOwnFile(path: string): Promise<boolean> {
  const checked = checkPath(path, { purpose: 'write' });
  try {
    const info = await lstat(checked.folder.at(checked.name)).catch(() => undefined);
    if (!info?.isFile() || !checked.folder.owns(info)) return false;
    return await unlink(checked.folder.at(checked.name)).then(
      () => true,
      () => false,
    );
  } finally {
    checked.folder.close();
  }
}
