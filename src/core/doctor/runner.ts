import { scopedSignal } from './scoped-signal.js';
import { checkState, type CheckState } from './state-keys.js';
import type { Check, CheckOutcome, CheckResult, DoctorReport, Status } from './types.js';

export interface RunOptions {
  /** Per-check timeout when a check sets none. */
  timeoutMs?: number;
  /** Overall deadline for the whole run. */
  deadlineMs?: number;
  /** How many checks may run at once. */
  concurrency?: number;
  /** Stops the whole run (e.g. the user cancelled): running checks see their signal aborted. */
  signal?: AbortSignal;
  onStart?(check: Check): void;
  onFinish?(outcome: CheckOutcome): void;
  log?(line: string): void;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_DEADLINE_MS = 60_000;

/** The message of a check the user stopped (Ctrl+C) before it ended: not run, no verdict. */
export const INTERRUPTED = 'Not run: interrupted.';

/**
 * Runs checks concurrently, honouring `needs`/`after` ordering. A check that throws, times out or
 * outlives the deadline becomes `fail`; it never crashes the run.
 */
export async function runChecks(checks: Check[], options: RunOptions = {}): Promise<DoctorReport> {
  const started = performance.now();
  const run = scopedSignal(options.signal, options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const deadline = run.signal;
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const byId = new Map(checks.map((c) => [c.id, c]));
  const outcomes = new Map<string, CheckOutcome>();
  const state = checkState();
  const pending = new Set(checks);
  const running = new Set<Promise<void>>();

  const prerequisites = (c: Check) => [...(c.needs ?? []), ...(c.after ?? [])].filter((id) => byId.has(id));
  const ready = (c: Check) => prerequisites(c).every((id) => outcomes.has(id));

  const finish = (check: Check, result: CheckResult, durationMs: number) => {
    const outcome: CheckOutcome = {
      id: check.id,
      group: check.group,
      title: check.title,
      ...result,
      durationMs: Math.round(durationMs),
    };
    outcomes.set(check.id, outcome);
    options.onFinish?.(outcome);
  };

  const launch = (check: Check) => {
    pending.delete(check);
    const blocker = (check.needs ?? [])
      .map((id) => outcomes.get(id) ?? (byId.has(id) ? undefined : missing(id)))
      .find((o) => o && o.status !== 'ok' && o.status !== 'warn');
    if (blocker) {
      finish(check, { status: 'skip', message: notRunBecause(blocker) }, 0);
      return;
    }
    options.onStart?.(check);
    const t0 = performance.now();
    const task = runOne(check, options, deadline, outcomes, state).then((result) => {
      finish(check, result, performance.now() - t0);
    });
    const tracked = task.finally(() => running.delete(tracked));
    running.add(tracked);
  };

  while (pending.size > 0 || running.size > 0) {
    let launched = false;
    for (const check of [...pending]) {
      if (running.size >= concurrency) break;
      if (ready(check)) {
        launch(check);
        launched = true;
      }
    }
    if (running.size > 0) {
      await Promise.race(running);
    } else if (!launched && pending.size > 0) {
      // A cycle or a prerequisite that never finishes: report instead of hanging.
      for (const check of [...pending]) {
        pending.delete(check);
        finish(check, { status: 'fail', message: `Not run: waits on ${prerequisites(check).join(', ')}, which never finished.` }, 0);
      }
    }
  }
  run.release();

  const ordered = checks.map((c) => outcomes.get(c.id)!);
  return {
    schema: 'cloudgate.doctor/v1',
    durationMs: Math.round(performance.now() - started),
    summary: summarize(ordered),
    checks: ordered,
  };
}

/** Names the root cause once, however long the chain of skipped steps behind it. */
function notRunBecause(blocker: CheckOutcome): string {
  if (blocker.status === 'skip') {
    return blocker.message.startsWith('Not run:') ? blocker.message : `Not run: ${blocker.id} was skipped (${blocker.message.replace(/\.$/, '')}).`;
  }
  return `Not run: ${blocker.id} failed.`;
}

function missing(id: string): CheckOutcome {
  return { id, group: '', title: id, status: 'skip', message: 'not selected', durationMs: 0 };
}

async function runOne(
  check: Check,
  options: RunOptions,
  deadline: AbortSignal,
  outcomes: Map<string, CheckOutcome>,
  state: CheckState,
): Promise<CheckResult> {
  const timeoutMs = check.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const scope = scopedSignal(deadline, timeoutMs);
  const { signal } = scope;
  let onAbort = () => {};
  const aborted = new Promise<CheckResult>((resolve) => {
    // Stopped by the user (Ctrl+C): not run, which says nothing about the system.
    onAbort = () =>
      resolve(options.signal?.aborted ? { status: 'skip', message: INTERRUPTED } : {
        status: 'fail',
        message: deadline.aborted ? 'Did not finish before the overall deadline.' : `Did not finish within ${formatSeconds(timeoutMs)}.`,
        advice: 'Check that the server is reachable, or raise --timeout.',
      });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const ctx = {
    signal,
    outcome: (id: string) => outcomes.get(id),
    state,
    log: (line: string) => options.log?.(`[${check.id}] ${line}`),
  };
  const work = Promise.resolve()
    .then(() => check.run(ctx))
    .catch(
      (error: unknown): CheckResult => ({
        status: 'fail',
        message: `The check itself failed: ${error instanceof Error ? error.message : String(error)}`,
        advice: 'This is a bug in cloudgate or an unexpected answer; run with --verbose and report it.',
      }),
    );
  try {
    return await Promise.race([work, aborted]);
  } finally {
    // A finished check lets go of the run's signal: nothing of it stays reachable from a long-lived one.
    signal.removeEventListener('abort', onAbort);
    scope.release();
  }
}

export function summarize(outcomes: { status: Status }[]): Record<Status, number> {
  const summary: Record<Status, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const o of outcomes) summary[o.status]++;
  return summary;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Exit code: 1 on any failure, or on warnings with --strict. */
export function exitCodeFor(report: DoctorReport, strict: boolean): number {
  if (report.summary.fail > 0) return 1;
  if (strict && report.summary.warn > 0) return 1;
  return 0;
}
