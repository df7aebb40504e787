/**
 * All-or-nothing writes of several files: every temp file is written (same folder, final mode)
 * before any target is touched; then previous versions are backed up and the temps renamed into
 * place. A failure before the renames changes no target; a failure during them restores the
 * targets already replaced (content, mode, owner) and removes the backups this call made.
 *
 * Temps and backups are made exclusively, never through a link (new-files.ts). A target that is a link
 * is written through to the file it points to (that file is replaced, the link is kept) only when the
 * link rule allows it (links.ts); the written file then says so. A missing folder is created only when
 * the caller asks for it.
 */
import { constants, rmSync } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { cleanUpOnExit } from '../exit-cleanup.js';
import { codeOf, messageOf } from '../errors.js';
import { memberOf, textOf } from '../records.js';
import { pruneBackups, writeBackup, backupStamp } from './backups.js';
import { describeLinks, LinkRefused, resolveWritePath, type FollowedLink } from './links.js';
import { openPrevious, removeStaleTemps, tempPathFor, writeTemp, type Previous } from './new-files.js';

export { KEEP_BACKUPS, backupStamp, pruneBackups } from './backups.js';
export { isProcessAlive, removeStaleTemps, tempPathFor } from './new-files.js';
export { LinkRefused } from './links.js';

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

/** The folder a file goes into must exist (and be a folder) when the caller does not let it be created. */
async function assertFolder(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!info) throw Object.assign(new Error(`the folder ${dir} does not exist (cloudgate creates no folder for this file)`), { code: 'ENOFOLDER', path: dir });
  if (!info.isDirectory()) throw Object.assign(new Error(`${dir} is not a folder`), { code: 'ENOTDIR', path: dir });
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, O_RDONLY | O_DIRECTORY).catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

interface Staged {
  file: FileToWrite;
  target: string;
  links: FollowedLink[];
  temp?: string;
  previous?: Previous;
  backupPath?: string;
  renamed?: boolean;
}

/** Nothing was written; `advice` says what to do when the cause is known (a refused link, a missing folder). */
export class NothingWritten extends Error {
  constructor(
    message: string,
    readonly advice?: string,
  ) {
    super(message);
    this.name = 'NothingWritten';
  }
}

export async function writeFilesAtomically(files: FileToWrite[], now: Date = new Date(), options: WriteOptions = {}): Promise<WrittenFile[]> {
  const staged: Staged[] = [];
  const createdDirs: string[] = [];
  // Stopped by a signal mid-write: the temps go with the process (a rename done stays done).
  const forgetTemps = cleanUpOnExit(() => {
    for (const s of staged) if (s.temp && !s.renamed) rmSync(s.temp, { force: true });
  });
  const closePrevious = () => Promise.all(staged.map(async (s) => { await s.previous?.handle.close().catch(() => undefined); }));
  const cleanup = async () => {
    await Promise.all(staged.map(async (s) => { if (s.temp) await unlink(s.temp).catch(() => undefined); }));
    await closePrevious();
    // Folders this call created are empty again: remove them, newest first.
    for (const d of createdDirs.reverse()) await rm(d, { recursive: true }).catch(() => undefined);
  };
  try {
    try {
      for (const file of files) {
        const { path: target, links } = await resolveWritePath(file.path, { noFinalLink: file.noLink });
        if (options.createFolders === false) await assertFolder(dirname(target));
        const created = await mkdir(dirname(target), { recursive: true });
        if (created) createdDirs.push(created);
        await removeStaleTemps(target);
        const entry: Staged = { file, target, links, previous: await openPrevious(target) };
        staged.push(entry);
        entry.temp = tempPathFor(target);
        await writeTemp(entry.temp, file.content, file.mode, entry.previous?.owner);
      }
    } catch (error) {
      await cleanup();
      throw nothingWritten('Nothing was written', error);
    }

    const stamp = backupStamp(now);
    try {
      for (const s of staged) {
        if (s.previous && options.backup !== false) s.backupPath = await writeBackup(s.target, s.previous, stamp, s.file.backupContent);
        await rename(s.temp!, s.target);
        s.renamed = true;
        await syncFolder(dirname(s.target));
      }
    } catch (error) {
      await rollBack(staged);
      await cleanup();
      throw nothingWritten('Nothing was written (the files already replaced were restored)', error);
    }
  } finally {
    forgetTemps();
  }
  await closePrevious();

  for (const s of staged) if (s.backupPath) await pruneBackups(s.target, s.backupPath);
  return staged.map(({ file, target, links, backupPath }) => ({
    path: file.path,
    mode: file.mode,
    description: file.description,
    ...(backupPath ? { backupPath } : {}),
    ...(links.length > 0 ? { linkTarget: target, links } : {}),
  }));
}

/** Puts back what the renames replaced (content, mode and owner of the previous version) and drops the new backups. */
async function rollBack(staged: Staged[]): Promise<void> {
  for (const s of [...staged].reverse()) {
    if (s.renamed) {
      if (s.previous) {
        const restore = tempPathFor(s.target);
        const written = await writeTemp(restore, s.previous, s.previous.mode, s.previous.owner).then(() => true, () => false);
        if (written) await rename(restore, s.target).catch(() => unlink(restore).catch(() => undefined));
      } else {
        await unlink(s.target).catch(() => undefined);
      }
    }
    if (s.backupPath) await unlink(s.backupPath).catch(() => undefined);
  }
}

/** `what` and the cause; with advice when the cause is known (a refused link, a missing folder). */
function nothingWritten(what: string, error: unknown): NothingWritten {
  if (error instanceof LinkRefused) return new NothingWritten(`${what}: ${error.message}`, error.advice);
  const code = codeOf(error);
  const path = textOf(memberOf(error, 'path'));
  if (code === 'ENOFOLDER') return new NothingWritten(`${what}: ${messageOf(error)}`, `Create the folder first (mkdir -p ${path}), or give a path in an existing folder.`);
  return new NothingWritten(`${what}: ${code && path ? `${code} on ${path}` : messageOf(error)}`);
}
