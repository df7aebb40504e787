import { messageOf } from '../errors.js';
import { boundedRecord, cutText, LINE_LIMIT } from '../bounded.js';
import { memberOf, textOf } from '../records.js';
import { scopedSignal } from './scoped-signal.js';
import { isInterrupted, summarize } from './status.js';
import { checkState, type CheckState } from './state-keys.js';
import type { Check, CheckContext, CheckOutcome, CheckResult, DoctorReport, SkipReason } from './types.js';

export interface RunOptions {
  /** Per-check timeout when a check sets none. */
  timeoutMs?: number;
  /** Overall deadline for the whole run. */
  deadlineMs?: number;
  /** How many checks may run at once. */
  concurrency?: number;
  /** Stops the whole run (e.g. the user cancelled): running checks see their signal aborted. */
  signal?: AbortSignal;
  /**
   * When the run began (a `performance.now()` time), if before the checks start: the report's
   * durationMs then counts the time the groups took to provide their checks (the inventory group reads
   * and checks the whole inventory then). Each check's own durationMs is its run alone.
   */
  startedAt?: number;
  onStart?(check: Check): void;
  onFinish?(outcome: CheckOutcome): void;
  log?(line: string): void;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** How long a check that ran out of time has to report its own failure before the runner's is used. */
const TIMEOUT_GRACE_MS = 100;
const DEFAULT_DEADLINE_MS = 60_000;

/** The message of a check the user stopped (Ctrl+C) before it ended: not run, no verdict. */
export const INTERRUPTED = 'Not run: interrupted.';
const INTERRUPTED_REASON: SkipReason = { code: 'interrupted', text: 'Run the doctor again to check it.' };

/** A `needs` or `after` that names no check: a mistake in cloudgate's code, refused before anything runs. */
export class UnknownCheckReference extends Error {
  constructor(readonly check: string, readonly reference: string) {
    super(`Check ${check} waits on "${reference}", which is no check of this run, although its group "${groupOf(reference)}" is.`);
    this.name = 'UnknownCheckReference';
  }
}

function groupOf(id: string): string {
  return id.split('.')[0];
}

/**
 * Every `needs`/`after` id must name a check of the run, unless its whole group was left out (`--only`
 * another group): the check then runs without it. A misspelt id used to be dropped silently.
 */
export function validateReferences(checks: Check[]): void {
  const ids = new Set(checks.map((c) => c.id));
  const groups = new Set(checks.map((c) => c.group));
  for (const check of checks) {
    for (const ref of [...(check.needs ?? []), ...(check.after ?? [])]) {
      if (!ids.has(ref) && (groups.has(groupOf(ref)) || !ref.includes('.'))) throw new UnknownCheckReference(check.id, ref);
    }
  }
}

/**
 * Runs checks concurrently, honouring `needs`/`after` ordering. A check that throws, times out or
 * outlives the deadline becomes `fail`; it never crashes the run.
 */
export async function runChecks(checks: Check[], options: RunOptions = {}): Promise<DoctorReport> {
  validateReferences(checks);
  const started = options.startedAt ?? performance.now();
  const run = scopedSignal(options.signal, options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const deadline = run.signal;
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const byId = new Map(checks.map((c) => [c.id, c]));
  const outcomes = new Map<string, CheckOutcome>();
  const state = checkState();
  const pending = new Set(checks);
  const running = new Set<Promise<void>>();
  /** Checks the runner did not start because a check they need did not pass. */
  const notRun = new Set<string>();

  const prerequisites = (c: Check) => [...(c.needs ?? []), ...(c.after ?? [])].filter((id) => byId.has(id));
  const ready = (c: Check) => prerequisites(c).every((id) => outcomes.has(id));

  const finish = (check: Check, result: CheckResult, durationMs: number) => {
    const outcome: CheckOutcome = {
      id: check.id,
      group: check.group,
      title: check.title,
      ...boundedResult(result),
      durationMs: Math.round(durationMs),
    };
    outcomes.set(check.id, outcome);
    options.onFinish?.(outcome);
  };

  const launch = (check: Check) => {
    pending.delete(check);
    const gate = check.gate;
    if (gate?.kind === 'configured' && !gate.open) {
      finish(check, { status: 'skip', message: gate.message, reason: { code: 'not-configured', text: gate.text } }, 0);
      return;
    }
    const blocker = (check.needs ?? [])
      .map((id) => outcomes.get(id) ?? (byId.has(id) ? undefined : missing(id)))
      .find((o) => o && o.status !== 'ok' && o.status !== 'warn');
    if (blocker) {
      notRun.add(check.id);
      finish(check, { status: 'skip', message: notRunBecause(blocker, notRun), reason: reasonOf(blocker) }, 0);
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

/**
 * The result as every front-end shows it, bounded (bounded.ts): the message, the advice and the
 * reason redacted and cut to one report line, the details' texts and lists capped. A check that lists
 * 2,000 Certificates or 10,000 keys still makes lines a terminal, a CI log and Prometheus can hold.
 */
function boundedResult(result: CheckResult): CheckResult {
  return {
    ...result,
    message: cutText(result.message, LINE_LIMIT),
    ...(result.advice !== undefined ? { advice: cutText(result.advice, LINE_LIMIT) } : {}),
    ...(result.reason ? { reason: { ...result.reason, text: cutText(result.reason.text, LINE_LIMIT) } } : {}),
    ...(result.details ? { details: boundedRecord(result.details) } : {}),
  };
}

/** Names the root cause once, however long the chain of skipped steps behind it. */
function notRunBecause(blocker: CheckOutcome, notRun: Set<string>): string {
  if (blocker.status !== 'skip') return `Not run: ${blocker.id} failed.`;
  // The blocker was itself not run for an earlier check: its message already names the root.
  if (notRun.has(blocker.id) || isInterrupted(blocker)) return blocker.message;
  return `Not run: ${blocker.id} was skipped (${blocker.message.replace(/\.$/, '')}).`;
}

/**
 * A check that could not run for want of an earlier one: the earlier one's own reason when it was
 * skipped for one (what to set is the same), otherwise `needs-failed`.
 */
function reasonOf(blocker: CheckOutcome): SkipReason {
  if (blocker.status === 'skip' && blocker.reason) return blocker.reason;
  if (blocker.status === 'skip') return { code: 'needs-failed', text: `${blocker.id} was skipped: ${blocker.message}` };
  return { code: 'needs-failed', text: `Fix what ${blocker.id} reports first.` };
}

function missing(id: string): CheckOutcome {
  return {
    id, group: '', title: id, status: 'skip', message: 'not selected', durationMs: 0,
    reason: { code: 'needs-failed', text: `${id} is not part of this run: add its group "${groupOf(id)}" to --only.` },
  };
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
  const ctx: CheckContext = {
    signal,
    outcome: (id: string) => outcomes.get(id),
    state,
    log: (line: string) => options.log?.(`[${check.id}] ${line}`),
  };
  const own: Promise<{ result: CheckResult } | { bug: unknown }> = Promise.resolve().then(() => runGated(check, ctx, deadline)).then(
    (result) => ({ result }),
    (error: unknown) => {
      // An error that says what to do about it (a request, kubectl) is a failure of what was checked.
      const advice = textOf(memberOf(error, 'advice'));
      return advice === undefined ? { bug: error } : { result: { status: 'fail', message: messageOf(error), advice } };
    },
  );
  const work = own.then((ended): CheckResult => ('result' in ended ? ended.result : {
    status: 'fail',
    message: `The check itself failed: ${messageOf(ended.bug)}`,
    advice: 'This is a bug in cloudgate or an unexpected answer; run with --verbose and report it.',
  }));
  let onAbort = () => {};
  let grace: NodeJS.Timeout | undefined;
  const aborted = new Promise<CheckResult>((resolve) => {
    onAbort = () => {
      // Stopped by the user (Ctrl+C): not run, which says nothing about the system.
      if (options.signal?.aborted) return resolve({ status: 'skip', message: INTERRUPTED, reason: INTERRUPTED_REASON });
      const late: CheckResult = {
        status: 'fail',
        message: deadline.aborted ? 'Did not finish before the overall deadline.' : `Did not finish within ${formatSeconds(timeoutMs)}.`,
        advice: 'Check that the server is reachable, or raise --timeout.',
      };
      // A check that stops at once on its signal reports its own failure, which names what it was
      // waiting for (the HTTP client says which step of the request stalled): it gets a moment to.
      grace = setTimeout(() => resolve(late), TIMEOUT_GRACE_MS);
      void own.then((ended) => resolve('result' in ended && ended.result.status === 'fail' ? ended.result : late));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // Once its time is up, the check's result is only what `aborted` makes of it: never a late ok.
    return await Promise.race([work.then((result) => (signal.aborted ? aborted : result)), aborted]);
  } finally {
    clearTimeout(grace);
    // A finished check lets go of the run's signal: nothing of it stays reachable from a long-lived one.
    signal.removeEventListener('abort', onAbort);
    scope.release();
  }
}

/**
 * The `cluster()` gate is awaited inside the check's own timeout (kubectl may hang), but the probe runs
 * under the run's signal: its answer is shared by every check behind the gate, so one check's timeout
 * must not cancel it for the others. The check gets the context that answered in `ctx.cluster`.
 */
async function runGated(check: Check, ctx: CheckContext, run: AbortSignal): Promise<CheckResult> {
  const gate = check.gate;
  if (gate?.kind !== 'cluster') return check.run(ctx);
  const available = await gate.probe(run, ctx.state);
  // Timed out while the probe ran: its result is written already, the check must not start late.
  ctx.signal.throwIfAborted();
  if (!available.ok) return { status: 'skip', message: `${gate.lead ?? 'Cluster not checked'}: ${available.reason}`, reason: { code: 'no-cluster', text: available.reason } };
  return check.run({ ...ctx, cluster: { context: available.context } });
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The groups that checked nothing (every check skipped): each group named with --only, or, when
 * none was named, the whole run (reported as every group of it) when not one check ran.
 */
export function uncheckedGroups(report: Pick<DoctorReport, 'checks'>, requested: string[] = []): string[] {
  const skippedAll = (group?: string) => {
    const mine = report.checks.filter((c) => group === undefined || c.group === group);
    return mine.every((c) => c.status === 'skip');
  };
  if (requested.length > 0) return requested.filter((g) => skippedAll(g));
  return report.checks.length > 0 && skippedAll() ? [...new Set(report.checks.map((c) => c.group))] : [];
}

/**
 * Exit code: 1 on any failure; with --strict also on warnings and when a requested group (or, without
 * --only, the whole run) checked nothing.
 */
export function exitCodeFor(report: DoctorReport, strict: boolean, requested: string[] = []): number {
  if (report.summary.fail > 0) return 1;
  if (strict && report.summary.warn > 0) return 1;
  if (strict && uncheckedGroups(report, requested).length > 0) return 1;
  return 0;
}
