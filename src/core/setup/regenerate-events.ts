/**
 * What `cloudgate regenerate` has to say, as data: the run hands each event to its front-end, which
 * prints it (ui/text/regenerate.ts). Core writes nothing to a terminal itself.
 */
import type { Review } from './review.js';
import type { Outcome } from './outcome.js';
import type { IssuedSelection } from './regenerate-select.js';
import type { DeletionBatch, DeletionProgress } from './regenerate-delete.js';
import type { WaitOutcome } from './regenerate-wait.js';

export type RegenerateEvent =
  /** The review of what would be written (unless the confirmation shows it on its screen). */
  | { kind: 'review'; review: Review }
  /** The review has errors: nothing was written, no secret deleted. */
  | { kind: 'blocked' }
  /** kubectl failed while the secrets were looked up: nothing was written or deleted. */
  | { kind: 'kubectl-failed'; message: string; advice: string }
  /** Which secrets the replaced issuer issued, in which namespaces. */
  | { kind: 'selection'; selection: IssuedSelection; issuerName: string | null; namespaces: string[] }
  /** Why no secret may be deleted yet (the new issuer is not deployed, or that is unknown). */
  | { kind: 'not-deployed'; why: string }
  /** kubectl reaches no cluster: the secrets could not be listed. */
  | { kind: 'no-cluster'; reason: string }
  /** `--dry-run`: the kubectl commands the real run would execute (stdout), then the verdict. */
  | { kind: 'delete-commands'; batches: DeletionBatch[]; context?: string }
  | { kind: 'dry-run'; verdict: 'undecided' | 'not-deployed' | 'would-delete'; deleting: number }
  /** The files written. */
  | { kind: 'written'; outcome: Outcome }
  /** No secret was deleted, and why. */
  | { kind: 'kept'; why: 'not-deployed' | 'undecided' | 'nothing-stale' }
  /** A signal stopped the deletion: what was deleted and what was not. */
  | { kind: 'stopped'; progress: DeletionProgress }
  | { kind: 'deleted'; progress: DeletionProgress; context?: string }
  /** The secrets are deleted: cert-manager issues new ones; with --wait, followed for `waitSeconds`. */
  | { kind: 'reissuing'; waitSeconds?: number }
  | { kind: 'waited'; waited: WaitOutcome };
