/**
 * When a check can run at all, said once where the check is listed: the runner reads the gate and
 * writes the skip with its reason code, so no area spells its own "not configured", "does not apply"
 * or "no cluster", and every renderer can tell them apart without reading the message.
 */
// Types only: kubectl (and node:child_process with it) loads when a cluster gate is first asked, not at start-up.
import type { AvailabilityCache, KubeAvailability, KubectlOptions } from '../kube/kubectl.js';
import { memoKey, type RunMemo } from './facts.js';

/** A gate closed when the checks were listed: what the skip says, and why, as a code. */
export interface Closure {
  kind: 'closed';
  /** A setting is missing, or the configuration does not call for the check. */
  code: 'not-configured' | 'not-applicable';
  /** The skip's message. */
  message: string;
  /** What to set or do, in one sentence: the skip reason's text. */
  text: string;
}

export type Gate =
  | { kind: 'always' }
  | Closure
  | {
      kind: 'cluster';
      /**
       * Whether kubectl reaches a cluster; asked once per kubeconfig and context in the run (`memo`).
       * `signal` is the run's, not one check's: the answer is shared by every check behind the gate.
       */
      probe(signal: AbortSignal, memo: RunMemo): Promise<KubeAvailability>;
      /** The skip's message before the reason (default "Cluster not checked"). */
      lead?: string;
    };

export const always: Gate = { kind: 'always' };

export function isClosed(gate: Gate | undefined): gate is Closure {
  return gate?.kind === 'closed';
}

export interface ConfiguredOptions {
  /** Open when at least one of the keys is given (default: all of them). */
  any?: boolean;
  /** The skip's message (default: which settings are missing). */
  message?: string;
  /** What to set (default: "Set NAME, NAME."). */
  text?: string;
}

/**
 * Open when the named settings have values: `configured({ issuer_url: s.issuerUrl })`. The keys are
 * the names the operator writes, so the skip can say exactly what to set.
 */
export function configured(keys: Record<string, unknown>, options: ConfiguredOptions = {}): Gate {
  const names = Object.keys(keys);
  const missing = names.filter((name) => !given(keys[name]));
  const open = options.any ? missing.length < names.length : missing.length === 0;
  if (open) return always;
  const listed = options.any ? names.join(' or ') : missing.join(', ');
  const verb = !options.any && missing.length > 1 ? 'are' : 'is';
  return notConfigured(
    options.message ?? `Not configured: ${listed} ${verb} not set.`,
    options.text ?? `Set ${listed}.`,
  );
}

/** Closed for want of a setting that is not one key ("no inventory names an ACME issuer"), with what to do. */
export function notConfigured(message: string, text = message): Closure {
  return { kind: 'closed', code: 'not-configured', message, text };
}

/**
 * Closed because the configuration does not call for the check (an http01 solver has no DNS
 * credentials): nothing is missing, the sentence says why it does not apply.
 */
export function notApplicable(message: string, text = message): Closure {
  return { kind: 'closed', code: 'not-applicable', message, text };
}

/** `always` when `applies`, else closed as not applicable with `sentence`. */
export function appliesWhen(applies: boolean, sentence: string): Gate {
  return applies ? always : notApplicable(sentence);
}

/** The first closed gate of the list, else the last gate (the one that decides at run time, `cluster()`). */
export function firstClosed(...gates: Gate[]): Gate {
  return gates.find(isClosed) ?? gates.at(-1) ?? always;
}

function given(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

export interface ClusterOptions {
  /** The skip's message before the reason (default "Cluster not checked"). */
  lead?: string;
}

/**
 * Open when kubectl is installed, has a context and the cluster's API server answers. The check then
 * finds the context that answered in `ctx.cluster.context`.
 */
export function cluster(kube: KubectlOptions, options: ClusterOptions = {}): Gate {
  return {
    kind: 'cluster',
    probe: (signal, memo) => clusterAvailable(memo, { ...kube, signal }),
    ...(options.lead ? { lead: options.lead } : {}),
  };
}

const AVAILABILITY = memoKey<AvailabilityCache>('kube availability');

/** Whether kubectl reaches the cluster, asked once per kubeconfig and context in this run. */
export async function clusterAvailable(memo: RunMemo, kube: KubectlOptions): Promise<KubeAvailability> {
  const cache = memo.get(AVAILABILITY, () => new Map());
  const { kubeAvailability } = await import('../kube/kubectl.js');
  return kubeAvailability(kube, cache);
}
