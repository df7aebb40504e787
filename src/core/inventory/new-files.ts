/**
 * The files a write makes beside its target: temps and backups. Every one is created exclusively with
 * O_CREAT|O_EXCL|O_NOFOLLOW in the target's own folder, and its owner and mode are set on the open
 * descriptor: a link planted under the name, or switched in after a check, is never written through.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { escapeRegExp } from '../escape.js';
import { codeOf } from '../errors.js';

const { O_WRONLY, O_RDONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
const CREATE_NEW = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

export interface Owner {
  uid: number;
  gid: number;
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
    return codeOf(error) === 'EPERM'; // exists, owned by someone else
  }
}

/** Removes the temp files of `target` left by cloudgate runs that no longer exist (killed mid-write). */
export async function removeStaleTemps(target: string): Promise<string[]> {
  const name = basename(target);
  const pattern = new RegExp(`^\\.${escapeRegExp(name)}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  const removed: string[] = [];
  for (const entry of await readdir(dirname(target)).catch((): string[] => [])) {
    const pid = Number(pattern.exec(entry)?.[1]);
    if (!pid || isProcessAlive(pid)) continue;
    const path = join(dirname(target), entry);
    const info = await lstat(path).catch(() => undefined);
    if (info?.isFile() && (await unlink(path).then(() => true, () => false))) removed.push(path);
  }
  return removed;
}

/** Creates a new file (never an existing one, never through a link); owner and mode set on the descriptor. */
export async function createExclusive(path: string, mode: number, owner?: Owner): Promise<FileHandle> {
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
  for (let written = 0; written < length;) written += (await handle.write(buffer, written, length - written)).bytesWritten;
}

/** How a new file gets its content: a text, or a copy of the previous version of the target. */
export type Content = string | Previous;

export async function writeContent(handle: FileHandle, content: Content): Promise<void> {
  if (typeof content === 'string') await writeText(handle, content);
  else await copyPrevious(handle, content);
}

/**
 * Writes a complete new file under the temp name `temp`; on failure, nothing of it remains. The caller
 * picks the name (`tempPathFor`) before the file exists, so that a cleanup on a stopping signal finds it
 * even while it is being written.
 */
export async function writeTemp(temp: string, content: Content, mode: number, owner?: Owner): Promise<void> {
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
}

/**
 * The replaced file, kept open for reading: its backup and a rollback copy it from this descriptor
 * (after the rename it still reads the previous version), so its content is never held in memory.
 */
export interface Previous {
  handle: FileHandle;
  mode: number;
  owner: Owner;
}

/** The current version of `target`, opened without following a link. */
export async function openPrevious(target: string): Promise<Previous | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK); // a FIFO must not hang the open
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
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
