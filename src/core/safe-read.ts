/**
 * Reading a file the user named: only a regular file (a FIFO, a device or /proc entry would hang or
 * grow without bound), at most `maxBytes`, and never echoing its content in an error.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UsageError, codeOf } from './errors.js';
import { checkOpened, checkPath, MissingFolder, PathRefused } from './inventory/owned-path.js';

/** 1 MiB: far above any PEM bundle or inventory value, far below what exhausts memory. */
export const MAX_INPUT_BYTES = 1024 * 1024;

export interface SafeReadOptions {
  /** What the file is, for messages: "the answers file", "cluster_issuer_acme_email". */
  what: string;
  maxBytes?: number;
  /** The advice when the path is a folder (default: give an ordinary file). */
  folderAdvice?: string;
}

/** A path the ownership rule refused (exit 2): the message names the folder or file and its owner. */
export class RefusedPath extends UsageError {
  constructor(what: string, refusal: PathRefused) {
    super(`${capitalise(what)}: ${refusal.message}`, refusal.advice);
    this.name = 'RefusedPath';
  }
}

export interface RegularFileRead {
  text: string;
  /** The file's stats, taken on the descriptor the text was read from. */
  info: Stats;
  /** Whether the bytes were valid UTF-8 (else `text` holds U+FFFD where they were not). */
  utf8: boolean;
}

/**
 * The file's text. Opened without blocking (a FIFO with no writer does not hang the open), then
 * checked on the open descriptor, so a path swapped after the check cannot slip through.
 */
export function readRegularFileSync(path: string, options: SafeReadOptions): string {
  return readOpened(path, options, openForReading(path, options)).text;
}

/** As readRegularFileSync, with the file's stats; undefined when nothing exists at the path. */
export function readRegularFileIfExistsSync(path: string, options: SafeReadOptions): RegularFileRead | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return undefined;
    throw cannotRead(path, options, error);
  }
  return readOpened(path, options, fd);
}

/**
 * A file that holds or leads to a secret (an answers file, a config file, a vault password file, a key,
 * clouds.yaml): read only where the ownership rule allows it (owned-path.ts: the file and every folder
 * of its path the caller's or root's, none writable by others but root's sticky ones), opened relative
 * to its checked folder. A refusal is a UsageError (exit 2) naming the folder or file, its owner and
 * the fix.
 */
export function readOwnedFileSync(path: string, options: SafeReadOptions): string {
  const read = readOwnedFileIfExistsSync(path, options);
  if (!read) throw cannotRead(path, options, Object.assign(new Error('missing'), { code: 'ENOENT' }));
  return read.text;
}

/** As readOwnedFileSync; undefined when nothing exists at the path. */
export function readOwnedFileIfExistsSync(path: string, options: SafeReadOptions): RegularFileRead | undefined {
  let checked;
  try {
    checked = checkPath(path, { purpose: 'read' });
  } catch (error) {
    if (error instanceof MissingFolder) return undefined;
    if (error instanceof PathRefused) throw new RefusedPath(options.what, error);
    throw cannotRead(path, options, error);
  }
  const { folder, name, existing } = checked;
  try {
    if (!existing) return undefined;
    let fd: number;
    try {
      fd = openSync(folder.at(name), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    } catch (error) {
      throw cannotRead(path, options, error);
    }
    try {
      const info = fstatSync(fd);
      if (info.ino !== existing.ino || info.dev !== existing.dev) {
        throw new UsageError(
          `${capitalise(options.what)} ${path} changed while it was being checked.`,
          'Run the command again.',
        );
      }
      checkOpened(path, 'read', folder, name, info);
    } catch (error) {
      closeSync(fd);
      if (error instanceof PathRefused) throw new RefusedPath(options.what, error);
      throw error;
    }
    return readOpened(path, options, fd);
  } finally {
    folder.close();
  }
}

function openForReading(path: string, options: SafeReadOptions): number {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw cannotRead(path, options, error);
  }
}

/** Reads an open descriptor (and closes it): a regular file only, at most maxBytes. */
function readOpened(path: string, options: SafeReadOptions, fd: number): RegularFileRead {
  const maxBytes = options.maxBytes ?? MAX_INPUT_BYTES;
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) {
      throw new UsageError(
        `${capitalise(options.what)} ${path} is not a regular file (${kindOf(info)}).`,
        info.isDirectory() && options.folderAdvice
          ? options.folderAdvice
          : 'Give the path of an ordinary file; pipes, devices and folders are refused.',
      );
    }
    if (info.size > maxBytes) throw tooLarge(path, options.what, maxBytes);
    // /proc files report size 0 but have content: grow the buffer until end of file or the cap.
    let buffer = Buffer.allocUnsafe(Math.min(Math.max(info.size, 4096), maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length)
        buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, maxBytes + 1 - length))]);
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > maxBytes) throw tooLarge(path, options.what, maxBytes);
    }
    return { text: buffer.toString('utf8', 0, length), info, utf8: isUtf8(buffer.subarray(0, length)) };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw cannotRead(path, options, error);
  } finally {
    closeSync(fd);
  }
}

function cannotRead(path: string, options: SafeReadOptions, error: unknown): UsageError {
  return new UsageError(
    `Cannot read ${options.what} ${path}: ${codeOrUnreadable(error)}.`,
    'Check the path and its permissions.',
  );
}

export async function readRegularFile(path: string, options: SafeReadOptions): Promise<string> {
  return readRegularFileSync(path, options);
}

function tooLarge(path: string, what: string, maxBytes: number): UsageError {
  return new UsageError(
    `${capitalise(what)} ${path} is larger than ${formatBytes(maxBytes)}.`,
    'Check that the path names the intended file.',
  );
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a pipe';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSocket()) return 'a socket';
  return 'not a file';
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function codeOrUnreadable(error: unknown): string {
  return codeOf(error) ?? 'unreadable';
}
