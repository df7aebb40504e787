/** The marks, counts and interrupted wording of check statuses: one rule each, for every renderer. */
import type { SkipReason, Status } from './types.js';

export const STATUSES: readonly Status[] = ['ok', 'warn', 'fail', 'skip'];

export const STATUS_MARK: Record<Status, string> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

/** How many outcomes have each status. */
export function summarize(outcomes: readonly { status: Status }[]): Record<Status, number> {
  const summary: Record<Status, number> = { ok: 0, warn: 0, fail: 0, skip: 0 };
  for (const o of outcomes) summary[o.status]++;
  return summary;
}

/** `9 ok, 1 warn`: the statuses with none left out, unless `all`. */
export function statusCounts(summary: Record<Status, number>, all = false): string {
  return STATUSES.filter((s) => all || summary[s] > 0)
    .map((s) => `${summary[s]} ${s}`)
    .join(', ');
}

/** A check stopped by Ctrl+C before it ended (not run, no verdict). */
export function isInterrupted(check: { reason?: SkipReason }): boolean {
  return check.reason?.code === 'interrupted';
}

/** Said at once when Ctrl+C stops a run. */
export const RUN_INTERRUPTED = 'Interrupted: the checks still running were stopped (shown as not run).';

/** The verdict of a stopped run: how many checks were not run. */
export function interruptedVerdict(stopped: number): string {
  return `Interrupted: ${stopped} check${stopped === 1 ? ' was' : 's were'} not run; no verdict.`;
}
