/**
 * All-or-nothing writes of several files: every temp file is written (same folder, final mode)
 * before any target is touched; then previous versions are backed up and the temps renamed into
 * place. A failure before the renames changes no target; a failure during them restores the
 * targets already replaced (content, mode, owner) and removes the backups this call made.
 *
 * Every file made here (temp, backup) is created exclusively with O_CREAT|O_EXCL|O_NOFOLLOW in the
 * target's own folder, and its owner and mode are set on the open descriptor: a link planted under
 * the name, or switched in after a check, is never written through. A target that is itself a link
 * is written through to the file it points to (that file is replaced, the link is kept).
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, rename, rm, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

const { O_WRONLY, O_RDONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;
const CREATE_NEW = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

/** How many `.bak` copies of a file are kept; older ones are removed after a successful write. */
export const KEEP_BACKUPS = 5;
const MAX_BACKUP_NUMBER = 1000;

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
}

export interface WrittenFile {
  path: string;
  mode: number;
  description: string;
  /** The copy of the previous version, when there was one. */
  backupPath?: string;
  /** `path` is a link: this is the file it points to, which was replaced (the link is kept). */
  linkTarget?: string;
}

export interface WriteOptions {
  /** Keep a `.bak` copy of each replaced file (default true). */
  backup?: boolean;
}

interface Owner {
  uid: number;
  gid: number;
}

export function backupStamp(now: Date = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** `Wrote` line of a written file, as the commands print it. */
export function describeWritten(file: WrittenFile): string {
  return [
    `${file.path} (mode ${file.mode.toString(8).padStart(4, '0')})`,
    file.linkTarget ? `; written through the link to ${file.linkTarget} (the link is kept)` : '',
    file.backupPath ? `; previous version saved as ${file.backupPath}` : '',
  ].join('');
}

/** The file a path finally names: links followed one by one (a dangling link gives the missing file). */
export async function resolveLinks(path: string): Promise<string> {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let info: Stats;
    try {
      info = await lstat(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return current;
      throw error;
    }
    if (!info.isSymbolicLink()) return current;
    current = resolve(dirname(current), await readlink(current));
  }
  throw Object.assign(new Error(`Too many levels of links from ${path}`), { code: 'ELOOP', path });
}

/** `.<name>.<pid>.<random>.tmp` beside the target: hidden from Ansible, and tells which process made it. */
export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/** Removes the temp files of `target` left by cloudgate runs that no longer exist (killed mid-write). */
export async function removeStaleTemps(target: string): Promise<string[]> {
  const name = basename(target);
  const pattern = new RegExp(`^\\.${escapeRegExp(name)}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  const removed: string[] = [];
  for (const entry of await readdir(dirname(target)).catch(() => [] as string[])) {
    const pid = Number(pattern.exec(entry)?.[1]);
    if (!pid || isProcessAlive(pid)) continue;
    const path = join(dirname(target), entry);
    const info = await lstat(path).catch(() => undefined);
    if (info?.isFile() && (await unlink(path).then(() => true, () => false))) removed.push(path);
  }
  return removed;
}

/** Creates a new file (never an existing one, never through a link); owner and mode set on the descriptor. */
async function createExclusive(path: string, mode: number, owner?: Owner): Promise<FileHandle> {
  const handle = await open(path, CREATE_NEW, mode & 0o777);
  try {
    if (owner) await handle.chown(owner.uid, owner.gid).catch(() => undefined); // only root may give a file away
    await handle.chmod(mode); // exact, whatever the umask
    return handle;
  } catch (error) {
    await handle.close();
    await unlink(path).catch(() => undefined);
    throw error;
  }
}

const CHUNK_CHARS = 1 << 20;
const CHUNK_BYTES = 1 << 20;

/**
 * Writes a text a piece at a time through one reused buffer, so that a large text is never held a
 * second time as bytes (a UTF-16 unit is at most 3 bytes of UTF-8, so a piece always fits).
 */
async function writeText(handle: FileHandle, content: string): Promise<void> {
  if (content.length <= CHUNK_CHARS) {
    await handle.writeFile(content);
    return;
  }
  const buffer = Buffer.allocUnsafe(3 * CHUNK_CHARS);
  for (let at = 0; at < content.length;) {
    let end = Math.min(at + CHUNK_CHARS, content.length);
    const last = content.charCodeAt(end - 1);
    if (end < content.length && last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
    await writeAll(handle, buffer, buffer.write(content.slice(at, end), 0, 'utf8'));
    at = end;
  }
}

/** Copies the whole previous version, from its open descriptor, a piece at a time. */
async function copyPrevious(handle: FileHandle, previous: Previous): Promise<void> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  for (let position = 0; ;) {
    const { bytesRead } = await previous.handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    await writeAll(handle, buffer, bytesRead);
    position += bytesRead;
  }
}

async function writeAll(handle: FileHandle, buffer: Buffer, length: number): Promise<void> {
  for (let written = 0; written < length;) written += (await handle.write(buffer, written, length - written)).bytesWritten;
}

/** How a new file gets its content: a text, or a copy of the previous version of the target. */
type Content = string | Previous;

async function writeContent(handle: FileHandle, content: Content): Promise<void> {
  if (typeof content === 'string') await writeText(handle, content);
  else await copyPrevious(handle, content);
}

/** Writes a complete new file under a temp name; on failure, nothing of it remains. */
async function writeTemp(target: string, content: Content, mode: number, owner?: Owner): Promise<string> {
  const temp = tempPathFor(target);
  const handle = await createExclusive(temp, mode, owner);
  try {
    await writeContent(handle, content);
    await handle.sync();
    await handle.close();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return temp;
}

/**
 * The replaced file, kept open for reading: its backup and a rollback copy it from this descriptor
 * (after the rename it still reads the previous version), so its content is never held in memory.
 */
interface Previous {
  handle: FileHandle;
  mode: number;
  owner: Owner;
}

/** The current version of `target`, opened without following a link. */
async function openPrevious(target: string): Promise<Previous | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK); // a FIFO must not hang the open
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(`${target} is not a regular file`), { code: 'ENOTFILE', path: target });
    return { handle, mode: info.mode & 0o7777, owner: { uid: info.uid, gid: info.gid } };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Writes the previous version (or `replacement`, what the backup holds instead) into a new
 * `<target>.<stamp>[-n].bak`, mode 0600 (it may hold secrets).
 */
async function writeBackup(target: string, previous: Previous, stamp: string, replacement?: string): Promise<string> {
  // Numbered after every backup of the same second, not in the first free slot: a slot freed by the
  // pruning would make the newest backup look like the oldest.
  for (let n = await nextBackupNumber(target, stamp); ; n++) {
    const path = `${target}.${stamp}${n ? `-${n}` : ''}.bak`;
    // A thousand names of one second taken: someone plants them; stop rather than search on.
    if (n > MAX_BACKUP_NUMBER) throw Object.assign(new Error(`No free backup name for ${target} (${path} and those before it exist).`), { code: 'EEXIST' });
    let handle: FileHandle;
    try {
      handle = await createExclusive(path, 0o600, previous.owner);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // taken since, or a planted link
      throw error;
    }
    try {
      await writeContent(handle, replacement ?? previous);
      await handle.sync();
      await handle.close();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await unlink(path).catch(() => undefined);
      throw error;
    }
    return path;
  }
}

/** Past the highest `-n` among the backups of `target` taken in the second `stamp` (0 when there is none). */
async function nextBackupNumber(target: string, stamp: string): Promise<number> {
  const pattern = new RegExp(`^${escapeRegExp(basename(target))}\\.${stamp}(?:-(\\d+))?\\.bak$`);
  const taken = (await readdir(dirname(target)).catch(() => [] as string[]))
    .map((entry) => pattern.exec(entry))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1] ?? 0));
  return taken.length === 0 ? 0 : Math.max(...taken) + 1;
}

/** Keeps the newest KEEP_BACKUPS backups of `target` (by their time stamp), never removing `keep`. */
export async function pruneBackups(target: string, keep?: string): Promise<string[]> {
  const name = basename(target);
  const pattern = new RegExp(`^${escapeRegExp(name)}\\.(\\d{8}T\\d{6}Z)(?:-(\\d+))?\\.bak$`);
  const backups = (await readdir(dirname(target)).catch(() => [] as string[]))
    .map((entry) => ({ entry, match: pattern.exec(entry) }))
    .filter((b): b is { entry: string; match: RegExpExecArray } => b.match !== null)
    .map(({ entry, match }) => ({ path: join(dirname(target), entry), stamp: match[1]!, n: Number(match[2] ?? 0) }))
    .sort((a, b) => (a.stamp === b.stamp ? b.n - a.n : a.stamp < b.stamp ? 1 : -1));
  const removed: string[] = [];
  for (const old of backups.slice(KEEP_BACKUPS)) {
    if (old.path === keep) continue;
    const info = await lstat(old.path).catch(() => undefined);
    if (info?.isFile() && (await unlink(old.path).then(() => true, () => false))) removed.push(old.path);
  }
  return removed;
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, O_RDONLY | O_DIRECTORY).catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}

interface Staged {
  file: FileToWrite;
  target: string;
  temp?: string;
  previous?: Previous;
  backupPath?: string;
  renamed?: boolean;
}

export async function writeFilesAtomically(files: FileToWrite[], now: Date = new Date(), options: WriteOptions = {}): Promise<WrittenFile[]> {
  const staged: Staged[] = [];
  const createdDirs: string[] = [];
  const closePrevious = () => Promise.all(staged.map((s) => s.previous?.handle.close().catch(() => undefined)));
  const cleanup = async () => {
    await Promise.all(staged.map((s) => s.temp && unlink(s.temp).catch(() => undefined)));
    await closePrevious();
    // Folders this call created are empty again: remove them, newest first.
    for (const d of createdDirs.reverse()) await rm(d, { recursive: true }).catch(() => undefined);
  };
  try {
    for (const file of files) {
      const target = await resolveLinks(file.path);
      const created = await mkdir(dirname(target), { recursive: true });
      if (created) createdDirs.push(created);
      await removeStaleTemps(target);
      const entry: Staged = { file, target, previous: await openPrevious(target) };
      staged.push(entry);
      entry.temp = await writeTemp(target, file.content, file.mode, entry.previous?.owner);
    }
  } catch (error) {
    await cleanup();
    throw new Error(`Nothing was written: ${describeError(error)}`);
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
    throw new Error(`Nothing was written (the files already replaced were restored): ${describeError(error)}`);
  }
  await closePrevious();

  for (const s of staged) if (s.backupPath) await pruneBackups(s.target, s.backupPath);
  return staged.map(({ file, target, backupPath }) => ({
    path: file.path,
    mode: file.mode,
    description: file.description,
    ...(backupPath ? { backupPath } : {}),
    ...(target !== resolve(file.path) ? { linkTarget: target } : {}),
  }));
}

/** Puts back what the renames replaced (content, mode and owner of the previous version) and drops the new backups. */
async function rollBack(staged: Staged[]): Promise<void> {
  for (const s of [...staged].reverse()) {
    if (s.renamed) {
      if (s.previous) {
        const restore = await writeTemp(s.target, s.previous, s.previous.mode, s.previous.owner).catch(() => undefined);
        if (restore) await rename(restore, s.target).catch(() => unlink(restore).catch(() => undefined));
      } else {
        await unlink(s.target).catch(() => undefined);
      }
    }
    if (s.backupPath) await unlink(s.backupPath).catch(() => undefined);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function describeError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code && e.path) return `${e.code} on ${e.path}`;
  return e instanceof Error ? e.message : String(error);
}
