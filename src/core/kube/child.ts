/**
 * Every child process cloudgate starts runs through here. Each runs in its own process group, so that
 * at its deadline, on cancel, or when cloudgate itself is stopped, the whole group is killed: kubectl
 * and whatever it started (a credential plugin waiting for a browser holds kubectl's output open).
 * Nothing a child leaves behind can keep cloudgate alive past the deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildOptions {
  /** Written to the child's stdin, which is then closed. */
  input?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ChildResult {
  /** -1 when the child was killed or could not start. */
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  /** The error that kept the child from starting (ENOENT: no such program). */
  startError?: NodeJS.ErrnoException;
}

// Once the group is killed, how long its output may take to drain before the pipes are dropped (a
// process that left the group could hold them open for ever).
const DRAIN_MS = 200;

const groups = new Set<number>();

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

function killAllGroups(): void {
  for (const pid of groups) killGroup(pid);
  groups.clear();
}

// The children are outside cloudgate's process group, so Ctrl+C at the terminal does not reach them:
// cloudgate takes them down with it, then dies of the same signal as it would have.
function onFatalSignal(signal: NodeJS.Signals): void {
  killAllGroups();
  unwatchSignals();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}
const FATAL_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let watching = false;

function watchSignals(): void {
  if (watching) return;
  watching = true;
  process.on('exit', killAllGroups);
  for (const s of FATAL_SIGNALS) process.on(s, onFatalSignal);
}

function unwatchSignals(): void {
  if (!watching) return;
  watching = false;
  process.off('exit', killAllGroups);
  for (const s of FATAL_SIGNALS) process.off(s, onFatalSignal);
}

export function runChild(file: string, args: string[], options: ChildOptions): Promise<ChildResult> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    let cancelled = false;
    let exitCode = -1;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    let child: ChildProcess;
    try {
      child = spawn(file, args, { detached: true, env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ exitCode: -1, stdout: '', stderr: '', timedOut: false, cancelled: false, startError: error as NodeJS.ErrnoException });
      return;
    }
    const pid = child.pid;
    if (pid !== undefined) {
      groups.add(pid);
      watchSignals();
    }

    const finish = (startError?: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) {
        killGroup(pid); // whatever of the group outlived the child itself
        groups.delete(pid);
        if (groups.size === 0) unwatchSignals();
      }
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      child.unref();
      resolve({
        exitCode: timedOut || cancelled ? -1 : exitCode,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        cancelled,
        startError,
      });
    };

    const stop = () => {
      if (pid !== undefined) killGroup(pid);
      drainTimer ??= setTimeout(() => finish(), DRAIN_MS);
    };
    const onAbort = () => {
      cancelled = true;
      stop();
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);

    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.syscall?.startsWith('spawn')) finish(error);
    });
    child.on('exit', (code) => {
      exitCode = code ?? -1;
      // Anything the child left running in its group would hold the pipes open: it goes too.
      if (pid !== undefined) killGroup(pid);
      drainTimer ??= setTimeout(() => finish(), DRAIN_MS);
    });
    child.on('close', () => finish());

    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdin?.on('error', () => {
      // EPIPE: the child exited without reading its input.
    });
    child.stdin?.end(options.input ?? '');
  });
}
