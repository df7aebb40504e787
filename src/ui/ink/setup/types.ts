import type { RunOptions } from '../../../core/doctor/runner.js';
import type { Check, DoctorReport } from '../../../core/doctor/types.js';
import type { Finding } from '../../../core/findings.js';

export interface ReviewFile {
  path: string;
  description: string;
  mode?: number;
  holdsSecret?: boolean;
}

/** What the review screen shows: everything is computed before anything is written. */
export interface Review {
  inventoryPath: string;
  /** Which variable names the inventory is read and written with. */
  names?: string;
  /** The inventory diff, secrets already masked. */
  diff: string;
  files: ReviewFile[];
  /** Errors refuse the write; the operator goes back to fix them. */
  findings: Finding[];
  /** The inventory held another issuer (its certificate secrets must then be deleted and reissued). */
  issuerChange?: { from: string; to: string };
  /** What changes in the cluster: a heading and one line per changed object, and the objects' diff (secrets masked). */
  cluster?: { lines: string[]; diff: string };
}

export interface Outcome {
  written: string[];
  next: string[];
  dryRun: boolean;
  /** `--apply`: what kubectl did with the TLS Secret manifest. */
  applied?: { ok: boolean; message: string; advice?: string };
  /** Keyless clouddnsb (clusteroidc) was written: the walkthrough offers to run the discovery checks. */
  offerDiscovery?: boolean;
  /** The discovery checks the operator chose to run after the write. */
  discovery?: DoctorReport;
}

/** The doctor's discovery and kube checks, ready for runChecks. */
export interface DiscoveryRun {
  checks: Check[];
  options: RunOptions;
}

export interface Prerequisite {
  title: string;
  detail: string;
  command?: string;
}

/** The walkthrough's side effects, given to the screens so they stay free of business rules. */
export interface SetupServices {
  cwd: string;
  dryRun: boolean;
  /** Plans the write from the planSetup answers. */
  prepare(answers: Record<string, unknown>): Promise<Review>;
  /** Applies the last prepared plan (atomic, all or nothing). */
  write(): Promise<Outcome>;
  /** The external steps keyless clouddnsb needs, when the discovery module provides them. */
  prerequisites?(values: Record<string, unknown>): Prerequisite[];
  /** The doctor run that checks those steps. */
  discoveryCommand?: string;
  /**
   * The doctor's discovery and kube checks against the inventory just written, for this public issuer
   * URL. Aborting `signal` stops the checks still running (the operator cancelled).
   */
  discoveryChecks?(issuerUrl: string, signal: AbortSignal): Promise<DiscoveryRun>;
}
