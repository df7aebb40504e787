/**
 * What a change of the inventory changes in the cluster: the objects the platform renders from the
 * current values and from the planned ones, compared object by object. Secret values are never shown:
 * each is `********`, marked `(changed)` when the new value differs. The setup and regenerate reviews
 * only print what this returns.
 */
import { createTwoFilesPatch } from 'diff';
import { stringify } from 'yaml';
import { redact } from '../secrets.js';
import type { NamingProfile } from './names.js';
import { renderPlatform } from './objects.js';
import type { KubeObject } from './types.js';
import { isRecord } from '../records.js';

const MASK = '********';

export type ObjectChangeKind = 'added' | 'changed' | 'removed';

export interface ObjectChange {
  /** `Kind namespace/name` (`Kind name` for cluster-wide objects). */
  object: string;
  change: ObjectChangeKind;
  /** The fields that differ (`spec.acme.solvers`, `stringData.api-token`), for a changed object. */
  fields: string[];
}

export interface ClusterReview {
  changes: ObjectChange[];
  /** One line per changed object, then a closing line; no change: one line saying so. */
  summary: string[];
  /** The objects' YAML before and after, as a unified diff per changed object (secrets masked). */
  diff: string;
}

type Values = Record<string, unknown>;

/** `before`: the current inventory's values, or undefined when it holds no certificate settings yet. */
export function clusterReview(
  before: Values | undefined,
  after: Values,
  profile: NamingProfile = 'platform',
): ClusterReview {
  const old = objectsOf(before, profile);
  const now = objectsOf(after, profile);
  const changes: ObjectChange[] = [];
  const diffs: string[] = [];
  for (const id of new Set([...now.keys(), ...old.keys()])) {
    const a = old.get(id);
    const b = now.get(id);
    if (a && b && JSON.stringify(a) === JSON.stringify(b)) continue;
    const [shownA, shownB] = masked(a, b);
    const change: ObjectChangeKind = !a ? 'added' : !b ? 'removed' : 'changed';
    changes.push({ object: id, change, fields: a && b ? changedFields(a, b) : [] });
    const patch = createTwoFilesPatch(
      `${id} (now)`,
      `${id} (after)`,
      shownA ? yaml(shownA) : '',
      shownB ? yaml(shownB) : '',
      undefined,
      undefined,
      { context: 3 },
    );
    diffs.push(patch.replace(/^=+\n/, ''));
  }
  return { changes, summary: summaryOf(changes), diff: redact(diffs.join('')) };
}

/** The heading and the summary, as every review shows them (below the inventory's diff). */
export function clusterLines(review: ClusterReview): string[] {
  return [
    'Cluster: the objects the deployment creates (before -> after; all of them: cloudgate render)',
    ...review.summary.map((l) => `  ${l}`),
  ];
}

function objectsOf(values: Values | undefined, profile: NamingProfile): Map<string, KubeObject> {
  const out = new Map<string, KubeObject>();
  if (!values) return out;
  const rendered = renderPlatform(values, profile);
  for (const h of rendered.helm) {
    out.set(`Helm release ${h.namespace}/${h.name}`, {
      apiVersion: 'helm',
      kind: 'HelmRelease',
      metadata: { name: h.name, namespace: h.namespace },
      values: h.values,
    });
  }
  for (const { object } of rendered.objects) out.set(idOf(object), object);
  return out;
}

function idOf(object: KubeObject): string {
  return `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
}

/** Secret values replaced by the mask; a value that changes is marked on the new side. */
function masked(
  a: KubeObject | undefined,
  b: KubeObject | undefined,
): [KubeObject | undefined, KubeObject | undefined] {
  const hide = (
    object: KubeObject | undefined,
    other: KubeObject | undefined,
    mark: boolean,
  ): KubeObject | undefined => {
    if (!object || object.kind !== 'Secret') return object;
    const copy: KubeObject = { ...object };
    for (const field of ['stringData', 'data'] as const) {
      // A Secret's data and stringData map keys to values (what else is there is masked key by key too).
      const data = object[field] as Record<string, unknown> | undefined;
      if (!data) continue;
      const was = (other?.[field] ?? {}) as Record<string, unknown>; // the other side's Secret, the same way
      copy[field] = Object.fromEntries(
        Object.keys(data).map((k) => [k, mark && k in was && was[k] !== data[k] ? `${MASK} (changed)` : MASK]),
      );
    }
    return copy;
  };
  return [hide(a, b, false), hide(b, a, true)];
}

/** The paths (at most three levels deep) whose values differ. */
function changedFields(a: unknown, b: unknown, path = '', depth = 3): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (depth === 0 || !isRecord(a) || !isRecord(b)) return [path || '.'];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) =>
    changedFields(a[k], b[k], path ? `${path}.${k}` : k, depth - 1),
  );
}

function summaryOf(changes: ObjectChange[]): string[] {
  if (changes.length === 0) return ['No change to the objects the deployment creates.'];
  return changes.map((c) => {
    if (c.change === 'added') return `+ ${c.object} (new)`;
    if (c.change === 'removed')
      return `- ${c.object} (no longer made from the inventory; the deployment leaves it in place)`;
    return `~ ${c.object}: ${c.fields.join(', ')}`;
  });
}

function yaml(object: KubeObject): string {
  return stringify(object, { lineWidth: 0 });
}
