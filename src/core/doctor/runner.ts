import { messageOf } from '../errors.js';
import { boundedRecord, cutText, LINE_LIMIT } from '../bounded.js';
import { memberOf, textOf } from '../records.js';
import { DEFAULT_NETWORK, type NetworkSettings } from '../config/network.js';
import { scopedSignal } from './scoped-signal.js';
import { isInterrupted, summarize } from './status.js';
import { RunFacts, runMemo, type FactKey, type RunMemo } from './facts.js';
import { isClosed } from './gates.js';
import { openServices, type Clock } from './services.js';
import type {
  Check,
  CheckContext,
  CheckOutcome,
  CheckResult,
  DoctorReport,
  RunnableCheck,
  RunResult,
  SkipReason,
  SubResult,
} from './types.js';

export interface RunOptions {
  /** Per-check timeout when a check sets none. */
  timeoutMs?: number;
  /** Overall deadline for the whole run. */
  deadlineMs?: number;
  /** How many checks may run at once. */
  concurrency?: number;
  /** Stops the whole run (e.g. the user cancelled): running checks see their signal aborted. */
  signal?: AbortSignal;
  /** How the run's services reach servers (the doctor's defaults when absent). */
  network?: NetworkSettings;
  /** The run's clock (the system's when absent). */
  clock?: Clock;
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

/** A skip the runner writes: a closed gate, a fact not handed on, an unavailable check, an interrupted one. */
interface NotRun {
  status: 'skip';
  message: string;
  reason: SkipReason;
  subject?: CheckResult<object>['subject'];
}

type Ended = CheckResult<object> | NotRun;

/** A `needs`, `uses` or `after` that names nothing of the run: a mistake in cloudgate's code, refused before anything runs. */
export class UnknownCheckReference extends Error {
  constructor(
    readonly check: string,
    readonly reference: string,
    why = 'is no check of this run, although its group is',
  ) {
    super(`Check ${check} waits on "${reference}", which ${why}.`);
    this.name = 'UnknownCheckReference';
  }
}

function groupOf(id: string): string {
  return id.split('.')[0];
}

/** A check with something to run: its gate did not close when it was listed. */
const runnable = (c: Check): c is RunnableCheck => !isClosed(c.gate) && typeof c.run === 'function';

/** The checks that hand on `key` in this run (a closed one too: its reason is handed on instead). */
function producersOf(checks: readonly Check[], key: FactKey<unknown>): Check[] {
  return checks.filter((c) => c.provides?.includes(key));
}

/**
 * Every `after` id must name a check of the run, and every `needs`/`uses` key a check that hands it on,
 * unless the group they belong to was left out (`--only` another group): `uses` and `after` then do
 * not wait, `needs` is not run with the group to add. A key is handed on only by its own group's checks.
 */
export function validateReferences(checks: readonly Check[]): void {
  const ids = new Set(checks.map((c) => c.id));
  const groups = new Set(checks.map((c) => c.group));
  const provided = new Set(checks.flatMap((c) => c.provides ?? []));
  for (const check of checks) {
    for (const key of check.provides ?? []) {
      if (key.group !== check.group)
        throw new UnknownCheckReference(
          check.id,
          key.name,
          `belongs to group ${key.group}: only its checks hand it on`,
        );
    }
    if (!runnable(check)) continue;
    for (const ref of check.after ?? []) {
      if (!ids.has(ref) && (groups.has(groupOf(ref)) || !ref.includes('.')))
        throw new UnknownCheckReference(check.id, ref);
    }
    for (const key of [...(check.needs ?? []), ...(check.uses ?? [])]) {
      if (!provided.has(key) && groups.has(key.group))
        throw new UnknownCheckReference(check.id, key.name, `no check of group ${key.group} hands on`);
    }
  }
}

/**
 * Runs checks concurrently, honouring `needs`/`uses`/`after`. A check that throws, times out or
 * outlives the deadline becomes `fail`; it never crashes the run. The run's services (the HTTP client,
 * the trust store) are opened for it and closed when it ends.
 */
export async function runChecks(checks: Check[], options: RunOptions = {}): Promise<DoctorReport> {
  validateReferences(checks);
  const started = options.startedAt ?? performance.now();
  const run = scopedSignal(options.signal, options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  const services = openServices(options.network ?? DEFAULT_NETWORK, options.clock ? { clock: options.clock } : {});
  const deadline = run.signal;
  const concurrency = Math.max(1, options.concurrency ?? 16);
  const byId = new Map(checks.map((c) => [c.id, c]));
  const outcomes = new Map<string, CheckOutcome>();
  const facts = new RunFacts();
  const memo = runMemo();
  const pending = new Set(checks);
  const running = new Set<Promise<void>>();
  /** Checks the runner did not start because a fact they need was not handed on. */
  const notRun = new Set<string>();

  const waitsFor = (c: Check): string[] => {
    if (!runnable(c)) return [];
    const keys = [...(c.needs ?? []), ...(c.uses ?? [])];
    const producers = keys.flatMap((key) => producersOf(checks, key).map((p) => p.id));
    return [...producers, ...(c.after ?? []).filter((id) => byId.has(id))];
  };
  const ready = (c: Check) => waitsFor(c).every((id) => outcomes.has(id));

  const finish = (check: Check, result: Ended, durationMs: number) => {
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

  /** Why `check` cannot run for want of a fact; undefined when every fact it needs was handed on. */
  const unmet = (check: RunnableCheck): NotRun | undefined => {
    for (const key of check.needs ?? []) {
      const producers = producersOf(checks, key);
      // Validated: none only when the key's group is not in this run.
      if (producers.length === 0) return notInRun(key);
      const ended = producers.map((p) => outcomes.get(p.id)!);
      if (facts.has(key) && ended.some(passed)) continue;
      const blocker = ended.find((o) => !passed(o));
      if (blocker) return blockedBy(blocker, notRun);
      const [producer] = ended;
      return {
        status: 'skip',
        message: `Not run: ${producer.id} did not hand on ${key.name}.`,
        reason: key.unset ?? { code: 'needs-failed', text: `Fix what ${producer.id} reports first.` },
      };
    }
    return undefined;
  };

  const launch = (check: Check) => {
    pending.delete(check);
    if (!runnable(check)) {
      const gate = check.gate;
      finish(check, { status: 'skip', message: gate.message, reason: { code: gate.code, text: gate.text } }, 0);
      return;
    }
    const blocked = unmet(check);
    if (blocked) {
      notRun.add(check.id);
      finish(check, blocked, 0);
      return;
    }
    options.onStart?.(check);
    const t0 = performance.now();
    const ctx: Omit<CheckContext, 'signal'> = {
      facts: facts.viewFor(check),
      memo,
      services,
      log: (line: string) => options.log?.(`[${check.id}] ${line}`),
    };
    const task = runOne(check, options, deadline, ctx).then((result) => {
      finish(check, result, performance.now() - t0);
    });
    const tracked = task.finally(() => running.delete(tracked));
    running.add(tracked);
  };

  try {
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
          finish(
            check,
            { status: 'fail', message: `Not run: waits on ${waitsFor(check).join(', ')}, which never finished.` },
            0,
          );
        }
      }
    }
  } finally {
    run.release();
    await services.close();
  }

  const ordered = checks.map((c) => outcomes.get(c.id)!);
  return {
    schema: 'cloudgate.doctor/v1',
    durationMs: Math.round(performance.now() - started),
    summary: summarize(ordered),
    checks: ordered,
  };
}

const passed = (o: CheckOutcome) => o.status === 'ok' || o.status === 'warn';

/**
 * The result as every front-end shows it, bounded (bounded.ts): the message, the advice and the
 * reason redacted and cut to one report line, the facts' texts and lists capped. A check that lists
 * 2,000 Certificates or 10,000 keys still makes lines a terminal, a CI log and Prometheus can hold.
 */
function boundedResult(result: Ended): Omit<CheckOutcome, 'id' | 'group' | 'title' | 'durationMs'> {
  if ('reason' in result)
    return {
      ...result,
      message: cutText(result.message, LINE_LIMIT),
      reason: { ...result.reason, text: cutText(result.reason.text, LINE_LIMIT) },
    };
  const { facts, parts, ...rest } = result;
  return {
    ...rest,
    message: cutText(result.message, LINE_LIMIT),
    ...(rest.advice !== undefined ? { advice: cutText(rest.advice, LINE_LIMIT) } : {}),
    ...(facts ? { facts: boundedRecord(facts) } : {}),
    ...(parts ? { parts: parts.map(boundedPart) } : {}),
  };
}

function boundedPart(part: SubResult): SubResult {
  return {
    ...part,
    message: cutText(part.message, LINE_LIMIT),
    ...(part.advice !== undefined ? { advice: cutText(part.advice, LINE_LIMIT) } : {}),
  };
}

/** Not run for want of what `blocker` would have handed on: its own reason when it had one, naming the root cause once. */
function blockedBy(blocker: CheckOutcome, notRun: Set<string>): NotRun {
  return { status: 'skip', message: notRunBecause(blocker, notRun), reason: reasonOf(blocker) };
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
  return { code: 'needs-failed', text: `Fix what ${blocker.id} reports first.` };
}

function notInRun(key: FactKey<unknown>): NotRun {
  return {
    status: 'skip',
    message: `Not run: ${key.name} comes from the ${key.group} group, which is not part of this run.`,
    reason: key.absent ?? { code: 'needs-failed', text: `Add its group "${key.group}" to --only.` },
  };
}

async function runOne(
  check: RunnableCheck,
  options: RunOptions,
  deadline: AbortSignal,
  base: Omit<CheckContext, 'signal'>,
): Promise<Ended> {
  const timeoutMs = check.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const scope = scopedSignal(deadline, timeoutMs);
  const { signal } = scope;
  const ctx: CheckContext = { ...base, signal };
  const own: Promise<{ result: Ended } | { bug: unknown }> = Promise.resolve()
    .then(() => runGated(check, ctx, deadline))
    .then(
      (result) => ({ result: ended(result) }),
      (error: unknown) => {
        // An error that says what to do about it (a request, kubectl) is a failure of what was checked.
        const advice = textOf(memberOf(error, 'advice'));
        return advice === undefined
          ? { bug: error }
          : { result: { status: 'fail', message: messageOf(error), advice } };
      },
    );
  const work = own.then((done): Ended =>
    'result' in done
      ? done.result
      : {
          status: 'fail',
          message: `The check itself failed: ${messageOf(done.bug)}`,
          advice: 'This is a bug in cloudgate or an unexpected answer; run with --verbose and report it.',
        },
  );
  let onAbort = () => {};
  let grace: NodeJS.Timeout | undefined;
  const aborted = new Promise<Ended>((resolve) => {
    onAbort = () => {
      // Stopped by the user (Ctrl+C): not run, which says nothing about the system.
      if (options.signal?.aborted) return resolve({ status: 'skip', message: INTERRUPTED, reason: INTERRUPTED_REASON });
      const late: Ended = {
        status: 'fail',
        message: deadline.aborted
          ? 'Did not finish before the overall deadline.'
          : `Did not finish within ${formatSeconds(timeoutMs)}.`,
        advice: 'Check that the server is reachable, or raise --timeout.',
      };
      // A check that stops at once on its signal reports its own failure, which names what it was
      // waiting for (the HTTP client says which step of the request stalled): it gets a moment to.
      grace = setTimeout(() => resolve(late), TIMEOUT_GRACE_MS);
      void own.then((done) => resolve('result' in done && done.result.status === 'fail' ? done.result : late));
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

/** A check's own result: a verdict, or, found only while running, why it could not be done here. */
function ended(result: RunResult<object>): Ended {
  if (!('unavailable' in result)) return result;
  return {
    status: 'skip',
    message: result.message,
    reason: { code: result.unavailable, text: result.text },
    ...(result.subject ? { subject: result.subject } : {}),
  };
}

/**
 * The `cluster()` gate is awaited inside the check's own timeout (kubectl may hang), but the probe runs
 * under the run's signal: its answer is shared by every check behind the gate, so one check's timeout
 * must not cancel it for the others. The check gets the context that answered in `ctx.cluster`.
 */
async function runGated(check: RunnableCheck, ctx: CheckContext, run: AbortSignal): Promise<RunResult<object>> {
  const gate = check.gate;
  if (gate?.kind !== 'cluster') return check.run(ctx);
  const available = await gate.probe(run, ctx.memo);
  // Timed out while the probe ran: its result is written already, the check must not start late.
  ctx.signal.throwIfAborted();
  if (!available.ok)
    return {
      unavailable: 'no-cluster',
      message: `${gate.lead ?? 'Cluster not checked'}: ${available.reason}`,
      text: available.reason,
    };
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

export type { RunMemo };
