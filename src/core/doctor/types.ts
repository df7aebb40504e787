import type { Gate } from './gates.js';
import type { CheckState } from './state-keys.js';

export type Status = 'ok' | 'warn' | 'fail' | 'skip';

/** What a check is about: a cluster object, a served endpoint, or a file. */
export type CheckSubject =
  | { kind: string; namespace?: string; name: string }
  | { endpoint: string }
  | { file: string };

/** A certificate a check read: the exporter makes one expiry series per `source`. */
export interface CertificateFact {
  /** Where it was read, unique in a run: a file's full path, `host:port`, or `namespace/secret`. */
  source: string;
  /** The certificate's subject (or its first name when the subject is empty). */
  subject: string;
  /** notAfter, ISO 8601. */
  notAfter: string;
}

/** Why a check was skipped or not run, as a code renderers can branch on. */
export type SkipCode = 'not-configured' | 'no-cluster' | 'needs-failed' | 'interrupted';
export interface SkipReason {
  code: SkipCode;
  /** What to set or do, in one sentence. */
  text: string;
}

/** The step of cert-manager's issuance that is stuck, with the object and its reason. */
export type StuckStep = 'request' | 'approval' | 'order' | 'challenge' | 'issuer' | 'controller' | 'secret';
export interface StuckStepFact {
  step: StuckStep;
  /** `Kind namespace/name` of the object that is stuck. */
  object: string;
  /** cert-manager's own reason (or state), as it gives it. */
  reason: string;
}

export interface CheckResult {
  status: Status;
  /** One line saying what was proved or what failed. Never a secret. */
  message: string;
  /** What to do about it (for warn and fail). */
  advice?: string;
  /** Structured facts for `--json` and `--verbose` (claims, dates, lists). Never a secret. */
  details?: Record<string, unknown>;
  /** What the check is about. */
  subject?: CheckSubject;
  /** Every certificate the check read (the exporter's expiry series come from these). */
  certificates?: CertificateFact[];
  /** For `skip`: why, as a code. */
  reason?: SkipReason;
  /** For a cert-manager walk that found a stuck step. */
  stuck?: StuckStepFact;
  /** When the token this check obtained expires (ISO 8601): the exporter's token expiry series. */
  tokenExpiresAt?: string;
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
  /** Set for a check behind the `cluster()` gate: the kubectl context its gate found answering. */
  cluster?: { context: string };
}

export interface Check {
  id: string;
  group: string;
  title: string;
  /**
   * When the check can run at all: `configured(keys)` (its settings are given), `cluster()` (kubectl
   * reaches a cluster) or `always` (the default). A closed gate is a `skip` the runner writes, with
   * the reason code `not-configured` or `no-cluster`.
   */
  gate?: Gate;
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
