/**
 * When a check can run at all, said once where the check is defined: the runner evaluates the gate
 * and writes the skip with its reason code, so no area spells its own "not configured" or "no
 * cluster" skip, and every renderer can tell the two apart without reading the message.
 */
// Types only: kubectl (and node:child_process with it) loads when a cluster gate is first asked, not at start-up.
import type { AvailabilityCache, KubeAvailability, KubectlOptions } from '../kube/kubectl.js';
import { stateKey, type CheckState } from './state-keys.js';

export type Gate =
  | { kind: 'always' }
  | {
      kind: 'configured';
      /** Whether the settings are there: decided when the checks are listed. */
      open: boolean;
      /** The settings that are not given, as the operator names them. */
      missing: string[];
      /** The skip's message when closed. */
      message: string;
      /** What to set, in one sentence: the skip reason's text. */
      text: string;
    }
  | {
      kind: 'cluster';
      /**
       * Whether kubectl reaches a cluster; asked once per kubeconfig and context in the run (`state`).
       * `signal` is the run's, not one check's: the answer is shared by every check behind the gate.
       */
      probe(signal: AbortSignal, state: CheckState): Promise<KubeAvailability>;
      /** The skip's message before the reason (default "Cluster not checked"). */
      lead?: string;
    };

export const always: Gate = { kind: 'always' };

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
  const listed = options.any ? names.join(' or ') : missing.join(', ');
  return {
    kind: 'configured',
    open,
    missing,
    message: options.message ?? `Not configured: ${listed} ${!options.any && missing.length > 1 ? 'are' : 'is'} not set.`,
    text: options.text ?? `Set ${listed}.`,
  };
}

/**
 * A gate the area closed when it listed its checks, with its own sentence (for a setting that is not
 * one key, e.g. "the inventory does not select route53 auth kubernetes"): the skip's message and what to set alike.
 */
export function notConfigured(sentence: string): Gate {
  return { kind: 'configured', open: false, missing: [], message: sentence, text: sentence };
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
  return { kind: 'cluster', probe: (signal, state) => clusterAvailable(state, { ...kube, signal }), ...(options.lead ? { lead: options.lead } : {}) };
}

const AVAILABILITY = stateKey<AvailabilityCache>('kube availability');

/** Whether kubectl reaches the cluster, asked once per kubeconfig and context in this run. */
export async function clusterAvailable(state: CheckState, kube: KubectlOptions): Promise<KubeAvailability> {
  let cache = state.get(AVAILABILITY);
  if (!cache) state.set(AVAILABILITY, (cache = new Map()));
  const { kubeAvailability } = await import('../kube/kubectl.js');
  return kubeAvailability(kube, cache);
}
