import type { FactKey, Facts, RunMemo } from './facts.js';
import type { Gate, Closure } from './gates.js';
import type { RunServices } from './services.js';

export type Status = 'ok' | 'warn' | 'fail' | 'skip';

/** What a check that ran concludes. `skip` is never one: the runner decides what does not run, and why. */
export type Verdict = Exclude<Status, 'skip'>;

/** What a check is about: a cluster object, a served endpoint, or a file. */
export type CheckSubject = { kind: string; namespace?: string; name: string } | { endpoint: string } | { file: string };

/** A certificate a check read: the exporter makes one expiry series per `source`. */
export interface CertificateFact {
  /** Where it was read, unique in a run: a file's full path, `host:port`, or `namespace/secret`. */
  source: string;
  /** The certificate's subject (or its first name when the subject is empty). */
  subject: string;
  /** notAfter, ISO 8601. */
  notAfter: string;
}

/**
 * Why a check did not run, as a code renderers can branch on: a setting is missing (`not-configured`),
 * the configuration makes it pointless (`not-applicable`: an http01 solver has no DNS credentials),
 * kubectl reaches no cluster (`no-cluster`), a check it needs did not hand on what it needs
 * (`needs-failed`), or the run was stopped (`interrupted`).
 */
export type SkipCode = 'not-configured' | 'not-applicable' | 'no-cluster' | 'needs-failed' | 'interrupted';
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

/**
 * One part of a check that judges several things at once (each endpoint of the service catalog): its
 * own verdict, said under the check's line, as flutter's grouped validators keep their sub-results.
 */
export interface SubResult {
  name: string;
  status: Verdict;
  message: string;
  advice?: string;
}

/**
 * What a check that ran found. `F` is the check's own facts (declared by its area as an interface):
 * shown with --verbose and in --json (as `details`), never looked up by a renderer.
 */
export interface CheckResult<F extends object = never> {
  status: Verdict;
  /** One line saying what was proved or what failed. Never a secret. */
  message: string;
  /** What to do about it (for warn and fail). */
  advice?: string;
  /** The check's typed facts (claims, dates, the URL asked). Never a secret. */
  facts?: F;
  /** The verdict of each part, for a check that judges several things. */
  parts?: SubResult[];
  /** What the check is about. */
  subject?: CheckSubject;
  /** Every certificate the check read (the exporter's expiry series come from these). */
  certificates?: CertificateFact[];
  /** For a cert-manager walk that found a stuck step. */
  stuck?: StuckStepFact;
  /** When the token this check obtained expires (ISO 8601): the exporter's token expiry series. */
  tokenExpiresAt?: string;
}

/**
 * Found only while running, never knowable when the checks are listed: the check cannot be done here
 * (cert-manager's CRDs are not installed, the kubectl user may not run the probe). Not a verdict: the
 * runner reports it as not run, with its code.
 */
export interface Unavailable {
  unavailable: Exclude<SkipCode, 'interrupted'>;
  /** Why, in one line. */
  message: string;
  /** What to set or do, in one sentence. */
  text: string;
  subject?: CheckSubject;
}

export type RunResult<F extends object = never> = CheckResult<F> | Unavailable;

/** One check's result in the report: a verdict, or `skip` with its reason. */
export interface CheckOutcome {
  id: string;
  group: string;
  title: string;
  status: Status;
  message: string;
  advice?: string;
  /** The check's own facts (`details` in --json): typed where the check made them, shown as they are by renderers. */
  facts?: Readonly<Record<string, unknown>>;
  parts?: SubResult[];
  /** For `skip`: why, as a code. */
  reason?: SkipReason;
  subject?: CheckSubject;
  certificates?: CertificateFact[];
  stuck?: StuckStepFact;
  tokenExpiresAt?: string;
  durationMs: number;
}

export interface CheckContext {
  /** Aborted when this check's timeout or the overall deadline passes. */
  signal: AbortSignal;
  /**
   * The facts earlier checks handed on, by the typed keys this check `needs` or `uses`; `set` for the
   * keys it `provides`. No other key can be read or written.
   */
  facts: Facts;
  /** Caches the checks of one run share (kubectl's availability): never printed. */
  memo: RunMemo;
  /** What the run owns and closes when it ends: the HTTP client, the trust store, the clock. */
  services: RunServices;
  /** A line for `--verbose` on stderr; redacted by the runner. */
  log(line: string): void;
  /** Set for a check behind the `cluster()` gate: the kubectl context its gate found answering. */
  cluster?: { context: string };
}

/** A check as listed: its stable id, its group and a title written for people. */
export interface CheckMeta {
  id: string;
  group: string;
  title: string;
}

/** A check that may run. */
export interface RunnableCheck<F extends object = object> extends CheckMeta {
  /**
   * When the check can run at all, decided when the checks are listed: `configured(...)` (its settings
   * are given), `applies(...)` (the configuration calls for it), `cluster()` (kubectl reaches a cluster,
   * asked once per run) or `always` (the default). A closed gate is a skip the runner writes, with its code.
   */
  gate?: Gate;
  /** Facts it cannot run without: handed on by checks that ended ok or warn, else it is not run (`needs-failed`). */
  needs?: readonly FactKey<unknown>[];
  /** Facts it reads when they were handed on: it waits for the checks that hand them on, and runs either way. */
  uses?: readonly FactKey<unknown>[];
  /** Facts it hands on (set through `ctx.facts`). */
  provides?: readonly FactKey<unknown>[];
  /** Checks of its group it is listed after and waits for, reading nothing of them. */
  after?: readonly string[];
  /** Per-check timeout in milliseconds (defaults to the runner's). */
  timeoutMs?: number;
  run(ctx: CheckContext): Promise<RunResult<F>>;
}

/** A check whose gate closed when it was listed: there is nothing to run, only the reason to report. */
export interface ClosedCheck extends CheckMeta {
  gate: Closure;
  /** What it would have handed on: the checks that need it are not run, with its reason. */
  provides?: readonly FactKey<unknown>[];
  run?: never;
}

export type Check = RunnableCheck | ClosedCheck;

export interface DoctorReport {
  schema: 'cloudgate.doctor/v1';
  durationMs: number;
  summary: Record<Status, number>;
  checks: CheckOutcome[];
}
