/**
 * All-or-nothing writes of several files: every temp file is written (same folder, final mode)
 * before any target is touched; then previous versions are backed up and the temps renamed into
 * place. A failure before the renames changes no target; a failure during them restores the
 * targets already replaced.
 */
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface FileToWrite {
  path: string;
  content: string;
  /** Permission bits (0o600 for files that hold a secret). */
  mode: number;
  holdsSecret: boolean;
  /** What the file is, for the review ("inventory", "TLS Secret manifest"). */
  description: string;
}

export interface WrittenFile {
  path: string;
  mode: number;
  description: string;
  /** The copy of the previous version, when there was one. */
  backupPath?: string;
}

export function backupStamp(now: Date = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function writeTemp(file: FileToWrite): Promise<string> {
  const temp = join(dirname(file.path), `.${basename(file.path)}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', file.mode);
  try {
    await handle.writeFile(file.content, 'utf8');
    await handle.chmod(file.mode); // the umask may have narrowed or the mode widened nothing: make it exact
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

export async function writeFilesAtomically(files: FileToWrite[], now: Date = new Date()): Promise<WrittenFile[]> {
  const temps: string[] = [];
  const createdDirs: string[] = [];
  const cleanup = async () => {
    await Promise.all(temps.map((t) => unlink(t).catch(() => undefined)));
    // Folders this call created are empty again: remove them, newest first.
    for (const d of createdDirs.reverse()) await rm(d, { recursive: true }).catch(() => undefined);
  };
  try {
    for (const file of files) {
      const created = await mkdir(dirname(file.path), { recursive: true });
      if (created) createdDirs.push(created);
      temps.push(await writeTemp(file));
    }
  } catch (error) {
    await cleanup();
    throw new Error(`Nothing was written: ${describeError(error)}`);
  }

  const written: WrittenFile[] = [];
  const stamp = backupStamp(now);
  try {
    for (const [i, file] of files.entries()) {
      let backupPath: string | undefined;
      if (await exists(file.path)) {
        backupPath = `${file.path}.${stamp}.bak`;
        for (let n = 1; await exists(backupPath); n++) backupPath = `${file.path}.${stamp}-${n}.bak`;
        await copyFile(file.path, backupPath);
        await chmod(backupPath, 0o600); // the old version may hold secrets too
      }
      await rename(temps[i], file.path);
      written.push({ path: file.path, mode: file.mode, description: file.description, ...(backupPath ? { backupPath } : {}) });
    }
  } catch (error) {
    for (const done of written) {
      if (done.backupPath) await copyFile(done.backupPath, done.path).catch(() => undefined);
      else await unlink(done.path).catch(() => undefined);
    }
    await cleanup();
    throw new Error(`Nothing was written (the files already replaced were restored): ${describeError(error)}`);
  }
  return written;
}

function describeError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e?.code && e.path) return `${e.code} on ${e.path}`;
  return e instanceof Error ? e.message : String(error);
}
