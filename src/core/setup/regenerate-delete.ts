/**
 * Deleting the stale certificate secrets: one kubectl call per namespace (thousands of secrets no
 * longer mean thousands of kubectl runs), kubectl saying each secret it deleted (`-o name`) as it goes,
 * so that a run stopped at any point (a signal, a failure, a deadline) says exactly which were deleted
 * and which were not. The --dry-run prints these very commands.
 */
import { joinCapped, LIST_LIMIT } from '../bounded.js';
import { messageOf } from '../errors.js';
import { kubectl, KubectlError, firstLine, type KubectlOptions } from '../kube/kubectl.js';
import { shellQuote } from '../shell-quote.js';
import type { StaleSecret } from './regenerate.js';

/**
 * Bytes of names per kubectl call: one call per namespace (tens of thousands of secret names fit),
 * with a command line that stays well below the system's limit (ARG_MAX, 2 MiB on Linux, environment included).
 */
export const BATCH_BYTES = 512 * 1024;

export interface DeletionBatch {
  namespace: string;
  secrets: StaleSecret[];
}

/** The stale secrets grouped by namespace (in their order): one batch each, split only past BATCH_BYTES of names. */
export function deletionBatches(stale: StaleSecret[], budget = BATCH_BYTES): DeletionBatch[] {
  const batches: DeletionBatch[] = [];
  const open = new Map<string, { batch: DeletionBatch; bytes: number }>();
  for (const secret of stale) {
    const size = Buffer.byteLength(secret.name) + 1;
    let current = open.get(secret.namespace);
    if (!current || (current.bytes + size > budget && current.batch.secrets.length > 0)) {
      current = { batch: { namespace: secret.namespace, secrets: [] }, bytes: 0 };
      open.set(secret.namespace, current);
      batches.push(current.batch);
    }
    current.batch.secrets.push(secret);
    current.bytes += size;
  }
  return batches;
}

/** The kubectl arguments of one batch (no binary, no global flags); `--` ends the options, so a name `-x` is a name. */
export function batchArgs(batch: DeletionBatch): string[] {
  // --wait=false: a secret has no finalizer to wait for, and kubectl would ask once more for each.
  return [
    'delete',
    'secret',
    `--namespace=${batch.namespace}`,
    '--ignore-not-found',
    '--wait=false',
    '--output=name',
    '--',
    ...batch.secrets.map((s) => s.name),
  ];
}

/** The command as an operator would type it (--dry-run prints exactly what the real run executes). */
export function batchCommandLine(batch: DeletionBatch, context?: string): string {
  return ['kubectl', ...(context ? [`--context=${context}`] : []), ...batchArgs(batch)].map(shellQuote).join(' ');
}

/** Where a deletion stands: kept up to date while it runs, for the report of a run stopped half-way. */
export interface DeletionProgress {
  deleted: StaleSecret[];
  /** The batch kubectl is deleting now, less what it already said it deleted. */
  inFlight: StaleSecret[];
  /** Not yet attempted. */
  pending: StaleSecret[];
  /** The batches that failed: what kubectl said (or that it did not answer), per namespace. */
  errors: { namespace: string; error: string; advice?: string }[];
  /** Attempted and not deleted. */
  failed: StaleSecret[];
}

export function startProgress(stale: StaleSecret[]): DeletionProgress {
  return { deleted: [], inFlight: [], pending: [...stale], errors: [], failed: [] };
}

/**
 * Deletes batch after batch, each secret counted as deleted when kubectl says so (or, when kubectl
 * exits 0, it is gone: --ignore-not-found). A failed batch does not stop the others: each namespace is
 * its own call. `progress` is updated as kubectl answers.
 */
export async function deleteInBatches(kube: KubectlOptions, progress: DeletionProgress): Promise<DeletionProgress> {
  for (const batch of deletionBatches(progress.pending)) {
    progress.pending = progress.pending.filter((s) => !batch.secrets.includes(s));
    progress.inFlight = [...batch.secrets];
    const confirm = (name: string) => {
      const secret = progress.inFlight.find((s) => s.name === name);
      if (!secret) return;
      progress.inFlight = progress.inFlight.filter((s) => s !== secret);
      progress.deleted.push(secret);
    };
    let pendingText = '';
    const onStdout = (chunk: Buffer) => {
      pendingText += chunk.toString('utf8');
      const lines = pendingText.split('\n');
      pendingText = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^secrets?\/(.+)$/.exec(line.trim());
        if (match) confirm(match[1]);
      }
    };
    try {
      // kubectl paces its own requests (about five a second): its deadline grows with the batch.
      const timeoutMs = kube.timeoutMs ?? 60_000 + 500 * batch.secrets.length;
      const result = await kubectl(batchArgs(batch), {
        ...kube,
        onStdout,
        step: `deleting ${batch.secrets.length} secret(s) in ${batch.namespace}`,
        timeoutMs,
      });
      onStdout(Buffer.from('\n'));
      if (result.exitCode === 0) {
        // --ignore-not-found: what kubectl did not name was already gone.
        for (const secret of [...progress.inFlight]) confirm(secret.name);
      } else {
        progress.errors.push({
          namespace: batch.namespace,
          error: firstLine(result.stderr) || `kubectl exit code ${result.exitCode}`,
        });
      }
    } catch (error) {
      progress.errors.push({
        namespace: batch.namespace,
        error: messageOf(error),
        ...(error instanceof KubectlError ? { advice: error.advice } : {}),
      });
    }
    progress.failed.push(...progress.inFlight);
    progress.inFlight = [];
  }
  return progress;
}

const name = (s: StaleSecret) => `${s.namespace}/${s.name}`;

/** What a finished (or failed) deletion did: deleted, not deleted and why, and how to finish. */
export function describeBatchDeletion(progress: DeletionProgress, context?: string): string[] {
  const lines: string[] = [];
  if (progress.deleted.length)
    lines.push(`Deleted ${progress.deleted.length}: ${joinCapped(progress.deleted.map(name))}`);
  const left = [...progress.failed, ...progress.pending];
  if (left.length === 0) return lines;
  for (const e of progress.errors)
    lines.push(`Failed to delete in ${e.namespace}: ${e.error}${e.advice ? ` ${e.advice}` : ''}`);
  lines.push(`Not deleted (${left.length}): ${joinCapped(left.map(name))}`);
  lines.push(...finishLines(left, context));
  return lines;
}

/** What a run stopped by a signal in the middle of the deletion says (synchronously, as it ends). */
export function describeStopped(progress: DeletionProgress): string[] {
  const lines = ['Stopped while deleting the certificate secrets.'];
  lines.push(
    progress.deleted.length
      ? `Deleted (${progress.deleted.length}): ${joinCapped(progress.deleted.map(name))}`
      : 'Deleted: none.',
  );
  if (progress.inFlight.length) {
    lines.push(
      `Maybe deleted (kubectl was deleting them when it was stopped; ${progress.inFlight.length}): ${joinCapped(progress.inFlight.map(name))}`,
    );
  }
  const left = [...progress.failed, ...progress.pending];
  lines.push(left.length ? `Not deleted (${left.length}): ${joinCapped(left.map(name))}` : 'Not deleted: none.');
  if (left.length || progress.inFlight.length)
    lines.push(
      'Run the same cloudgate regenerate command again: it deletes what is left (what the new issuer already issued is kept).',
    );
  return lines;
}

/** The commands that finish by hand, when they are few enough to list; else the rerun. */
function finishLines(left: StaleSecret[], context?: string): string[] {
  const rerun = 'Or run the same cloudgate regenerate command again once the cause is fixed: it deletes what is left.';
  if (left.length > LIST_LIMIT) return [rerun];
  return [
    'To finish by hand once the cause is fixed:',
    ...deletionBatches(left).map((b) => `  ${batchCommandLine(b, context)}`),
    rerun,
  ];
}
