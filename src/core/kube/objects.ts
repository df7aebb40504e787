/** cert-manager and Kubernetes objects as kubectl returns them (unchecked), and how their conditions are read. */
import type { CmCondition } from './platform.js';

export interface CmMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { kind?: string; name?: string; uid?: string }[];
}

export interface CmObject {
  kind?: string;
  metadata?: CmMeta;
  spec?: Record<string, unknown>;
  status?: {
    conditions?: (CmCondition & { observedGeneration?: number; lastTransitionTime?: string })[];
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** A condition as read: its status and reason, and whether it speaks of an older generation of the object. */
export interface ConditionState {
  status?: string;
  reason?: string;
  message?: string;
  /** The condition's `observedGeneration` is older than the object's `generation`: cert-manager has not looked since the change. */
  stale: boolean;
  observedGeneration?: number;
  generation?: number;
}

export function readCondition(object: CmObject | undefined, type: string): ConditionState | undefined {
  const condition = object?.status?.conditions?.find((c) => c?.type === type);
  if (!condition) return undefined;
  const generation = object?.metadata?.generation;
  const observed = condition.observedGeneration;
  return {
    status: condition.status,
    reason: condition.reason,
    message: condition.message,
    stale: typeof generation === 'number' && typeof observed === 'number' && observed < generation,
    observedGeneration: observed,
    generation,
  };
}

/** `Kind namespace/name` (or `Kind name` for a cluster-scoped object). */
export function objectName(o: CmObject | undefined, kind = o?.kind ?? 'object'): string {
  const ns = o?.metadata?.namespace;
  return `${kind} ${ns ? `${ns}/` : ''}${o?.metadata?.name ?? '?'}`;
}
