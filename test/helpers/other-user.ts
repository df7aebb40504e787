/**
 * Another real user on the machine, for the tests of the ownership rule: `nobody` (uid 65534, group
 * nogroup), run through setpriv (util-linux, always installed), so that what it plants, renames or
 * races is done by a process of that user, as an attacker's would be. The tests run as root (here and
 * in CI); `sharedFixture` makes a folder both can reach, with a sticky 1777 folder in it like /tmp.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NOBODY = 65534;
const AS_NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups', '--'];

/** Runs `script` with sh as nobody and waits; throws with its stderr when it fails. */
export function asNobody(script: string): string {
  const r = spawnSync('setpriv', [...AS_NOBODY, 'sh', '-c', script], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`as nobody: ${script}: exit ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Starts `script` with sh as nobody in the background (a racing attacker); kill it when done. */
export function startAsNobody(script: string): ChildProcess {
  return spawn('setpriv', [...AS_NOBODY, 'sh', '-c', script], { stdio: 'ignore', detached: true });
}

/** Stops a background process started by startAsNobody, with what it started. */
export function stop(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export interface SharedFixture {
  /** Root's folder (0755), which nobody can enter but not write. */
  dir: string;
  /** A sticky world-writable folder of root's, as /tmp. */
  shared: string;
  cleanup(): void;
}

export function sharedFixture(prefix = 'cloudgate-owners-'): SharedFixture {
  if (process.getuid?.() !== 0) throw new Error('these tests run as root (as in CI): they need a second user');
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  return { dir, shared, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
