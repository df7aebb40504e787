/**
 * The files a write makes beside its target: temps and backups. Every one is created exclusively with
 * O_CREAT|O_EXCL|O_NOFOLLOW inside the target's checked folder (owned-path.ts), and its mode is set on
 * the open descriptor: a link planted under the name, or switched in after a check, is never written
 * through. Only the caller's own leftovers are ever removed: a file someone else put there under a
 * temp's name is left alone.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { escapeRegExp } from '../escape.js';
import { codeOf } from '../errors.js';
import type { CheckedFolder } from './owned-path.js';

const { O_WRONLY, O_RDONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
const CREATE_NEW = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

/** `.<name>.<pid>.<random>.tmp` beside the target: hidden from Ansible, and tells which process made it. */
export function tempNameFor(name: string): string {
  return `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** The temp's path beside `target`. */
export function tempPathFor(target: string): string {
  return join(dirname(target), tempNameFor(basename(target)));
}

export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM'; // exists, owned by someone else
  }
}

/**
 * Removes the temp files of `name` left by the caller's cloudgate runs that no longer exist (killed
 * mid-write). A file of another user is never removed, whatever its name.
 */
export async function removeStaleTemps(folder: CheckedFolder, name: string): Promise<string[]> {
  const pattern = new RegExp(`^\\.${escapeRegExp(name)}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  const removed: string[] = [];
  for (const entry of await readdir(folder.at()).catch((): string[] => [])) {
    const pid = Number(pattern.exec(entry)?.[1]);
    if (!pid || isProcessAlive(pid)) continue;
    const info = await lstat(folder.at(entry)).catch(() => undefined);
    if (!info?.isFile() || !folder.owns(info)) continue;
    if (
      await unlink(folder.at(entry)).then(
        () => true,
        () => false,
      )
    )
      removed.push(folder.shown(entry));
  }
  return removed;
}

/**
 * Creates the new file `name` in `folder` (never an existing one, never through a link); its mode set
 * on the descriptor. `gid`: the group to give it (a replaced file's, where the caller may).
 */
export async function createExclusive(
  folder: CheckedFolder,
  name: string,
  mode: number,
  gid?: number,
): Promise<FileHandle> {
  const handle = await open(folder.at(name), CREATE_NEW, mode & 0o777);
  try {
    if (gid !== undefined) await handle.chown(-1, gid).catch(() => undefined); // the group only: the owner stays the caller
    await handle.chmod(mode); // exact, whatever the umask
    return handle;
  } catch (error) {
    await handle.close();
    await unlink(folder.at(name)).catch(() => undefined);
    throw error;
  }
}

/** Text is written, and a previous version copied, this many UTF-16 units or bytes at a time. */
const CHUNK = 1 << 20;

/**
 * Writes a text a piece at a time through one reused buffer, so that a large text is never held a
 * second time as bytes (`writeFile` of 16 MB raised the peak of `setup --yes` by 14 MiB). A UTF-16 unit
 * is at most 3 bytes of UTF-8, so a piece always fits.
 */
async function writeText(handle: FileHandle, content: string): Promise<void> {
  const buffer = Buffer.allocUnsafe(3 * Math.min(CHUNK, content.length));
  for (let at = 0; at < content.length;) {
    let end = Math.min(at + CHUNK, content.length);
    const last = content.charCodeAt(end - 1);
    if (end < content.length && last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
    await writeAll(handle, buffer, buffer.write(content.slice(at, end), 0, 'utf8'));
    at = end;
  }
}

/** Copies the whole previous version, from its open descriptor, a piece at a time. */
async function copyPrevious(handle: FileHandle, previous: Previous): Promise<void> {
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (let position = 0; ;) {
    const { bytesRead } = await previous.handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    await writeAll(handle, buffer, bytesRead);
    position += bytesRead;
  }
}

async function writeAll(handle: FileHandle, buffer: Buffer, length: number): Promise<void> {
  for (let written = 0; written < length;)
    written += (await handle.write(buffer, written, length - written)).bytesWritten;
}

/** How a new file gets its content: a text, or a copy of the previous version of the target. */
export type Content = string | Previous;

export async function writeContent(handle: FileHandle, content: Content): Promise<void> {
  if (typeof content === 'string') await writeText(handle, content);
  else await copyPrevious(handle, content);
}

/** A new file written whole: its inode, to tell later whether a name still holds it. */
export interface NewFile {
  ino: number;
}

/**
 * Writes a complete new file under the temp name `name` in `folder`; on failure, nothing of it remains.
 * The caller picks the name (`tempNameFor`) before the file exists, so that a cleanup on a stopping
 * signal finds it even while it is being written.
 */
export async function writeTemp(
  folder: CheckedFolder,
  name: string,
  content: Content,
  mode: number,
  gid?: number,
): Promise<NewFile> {
  const handle = await createExclusive(folder, name, mode, gid);
  try {
    await writeContent(handle, content);
    await handle.sync();
    const { ino } = await handle.stat();
    await handle.close();
    return { ino };
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(folder.at(name)).catch(() => undefined);
    throw error;
  }
}

/**
 * The replaced file, kept open for reading: its backup and a rollback copy it from this descriptor
 * (after the rename it still reads the previous version), so its content is never held in memory.
 */
export interface Previous {
  handle: FileHandle;
  mode: number;
  uid: number;
  gid: number;
  ino: number;
}

/**
 * The current version of `name` in `folder`, opened without following a link; undefined when there is
 * none. `checked`: the stats the walk saw there (undefined: it saw nothing); any other file found now is
 * refused (swapped or planted in between).
 */
export async function openPrevious(
  folder: CheckedFolder,
  name: string,
  checked?: { ino: number; dev: number },
): Promise<Previous | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(folder.at(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK); // a FIFO must not hang the open
  } catch (error) {
    if (codeOf(error) === 'ENOENT' && !checked) return undefined;
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ELOOP') throw changed(folder, name);
    throw error;
  }
  try {
    const info = await handle.stat();
    const path = folder.shown(name);
    if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTFILE', path });
    // Not what the walk checked there (or something appeared where it found nothing): swapped in between.
    if (!checked || info.ino !== checked.ino || info.dev !== checked.dev) throw changed(folder, name);
    return { handle, mode: info.mode & 0o7777, uid: info.uid, gid: info.gid, ino: info.ino };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function changed(folder: CheckedFolder, name: string): Error {
  const path = folder.shown(name);
  return Object.assign(new Error(`${path} changed while it was being checked`), { code: 'ECHANGED', path });
}
