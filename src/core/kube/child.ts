/**
 * Every child process cloudgate starts runs through here. Each runs in its own process group, so that
 * at its deadline, on cancel, or when cloudgate itself is stopped, the whole group is killed: kubectl
 * and whatever it started (a credential plugin waiting for a browser holds kubectl's output open).
 * Nothing a child leaves behind can keep cloudgate alive past the deadline: the child's own exit is
 * what counts, not the pipes it passed on (a daemon that left the group may hold them for ever).
 * Children get only the environment they need (core/child-env.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { childEnvironment, type ChildKind } from '../child-env.js';
import { cleanUpOnExit } from '../exit-cleanup.js';

export interface ChildOptions {
  /** Written to the child's stdin, which is then closed. */
  input?: string;
  /** Filtered to what a child of `kind` needs (default: this process's environment, as kubectl). */
  env?: NodeJS.ProcessEnv;
  kind?: ChildKind;
  cwd?: string;
  /** The child reads cloudgate's stdin and writes to its stderr (a password script that asks), instead of pipes. */
  inheritStdinStderr?: boolean;
  /** More stdout than this stops the child (its group killed); `overflowed` says so. */
  maxStdoutBytes?: number;
  /** Each piece of stdout as it comes (what a long child has done so far, should it be stopped). */
  onStdout?: (chunk: Buffer) => void;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ChildResult {
  /** -1 when the child was killed or could not start. */
  exitCode: number;
  stdout: string;
  /** stdout as it came, for output that is bytes (a password). */
  stdoutBytes: Buffer;
  stderr: string;
  timedOut: boolean;
  cancelled: boolean;
  overflowed?: boolean;
  /** The signal that ended the child, when one did. */
  exitSignal?: NodeJS.Signals;
  /** The error that kept the child from starting (ENOENT: no such program). */
  startError?: NodeJS.ErrnoException;
}

// Once the group is killed, how long its output may take to drain before the pipes are dropped (a
// process that left the group could hold them open for ever).
const DRAIN_MS = 200;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
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

    let overflowed = false;
    let size = 0;
    let exitSignal: NodeJS.Signals | undefined;

    // Killed at once when cloudgate is stopped by a signal (the group is out of the terminal's reach).
    // Registered before the child starts: a signal that comes as soon as it runs (before the line after
    // spawn) is then caught, and handled once the pid is known, instead of ending cloudgate with the group
    // left running.
    const group: { pid?: number } = {};
    const forget = cleanUpOnExit(
      () => {
        if (group.pid !== undefined) killGroup(group.pid);
      },
      { onSignal: true },
    );
    let child: ChildProcess;
    try {
      const env = childEnvironment(options.env ?? process.env, options.kind ?? 'kubectl');
      const inherit = options.inheritStdinStderr;
      child = spawn(file, args, {
        detached: true,
        env,
        cwd: options.cwd,
        stdio: [inherit ? 'inherit' : 'pipe', 'pipe', inherit ? 'inherit' : 'pipe'],
      });
    } catch (error) {
      forget();
      // spawn throws Node's system errors (ENOENT, EACCES, E2BIG), each with its code.
      resolve({
        exitCode: -1,
        stdout: '',
        stdoutBytes: Buffer.alloc(0),
        stderr: '',
        timedOut: false,
        cancelled: false,
        startError: error as NodeJS.ErrnoException,
      });
      return;
    }
    const pid = child.pid;
    group.pid = pid;

    const finish = (startError?: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(drainTimer);
      options.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) killGroup(pid); // whatever of the group outlived the child itself
      forget();
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      child.unref();
      resolve({
        exitCode: timedOut || cancelled ? -1 : exitCode,
        stdout: Buffer.concat(out).toString('utf8'),
        stdoutBytes: Buffer.concat(out),
        stderr: Buffer.concat(err).toString('utf8'),
        timedOut,
        cancelled,
        ...(overflowed ? { overflowed } : {}),
        ...(exitSignal && !timedOut && !cancelled && !overflowed ? { exitSignal } : {}),
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

    child.stdout?.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (options.maxStdoutBytes !== undefined && size > options.maxStdoutBytes) {
        overflowed = true;
        stop();
      } else {
        out.push(chunk);
        options.onStdout?.(chunk);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.syscall?.startsWith('spawn')) finish(error);
    });
    child.on('exit', (code, signal) => {
      exitCode = code ?? -1;
      exitSignal = signal ?? undefined;
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
