import type { CheckState } from './state-keys.js';

export type Status = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  status: Status;
  /** One line saying what was proved or what failed. Never a secret. */
  message: string;
  /** What to do about it (for warn and fail). */
  advice?: string;
  /** Structured facts for `--json` and `--verbose` (claims, dates, lists). Never a secret. */
  details?: Record<string, unknown>;
}

export interface CheckOutcome extends CheckResult {
  id: string;
  group: string;
  title: string;
  durationMs: number;
}

export interface CheckContext {
  /** Aborted when this check's timeout or the overall deadline passes. */
  signal: AbortSignal;
  /** Outcomes of checks that already finished (all of `needs` and `after` are here). */
  outcome(id: string): CheckOutcome | undefined;
  /** Values checks hand to later checks (tokens, catalogs), by typed keys: never printed. */
  state: CheckState;
  /** A line for `--verbose` on stderr; redacted by the runner. */
  log(line: string): void;
}

export interface Check {
  id: string;
  group: string;
  title: string;
  /** Must finish ok or warn first; otherwise this check is `skip` with the reason. */
  needs?: string[];
  /** Must only finish first (any status); the check reads their outcomes itself. */
  after?: string[];
  /** Per-check timeout in milliseconds (defaults to the runner's). */
  timeoutMs?: number;
  run(ctx: CheckContext): Promise<CheckResult>;
}

export interface DoctorReport {
  schema: 'cloudgate.doctor/v1';
  durationMs: number;
  summary: Record<Status, number>;
  checks: CheckOutcome[];
}
