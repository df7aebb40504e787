/**
 * Whether the cluster runs what the inventory renders: the live ClusterIssuer `atmosphere` compared
 * with the rendered one field by field, and the credential Secrets it references compared by name and
 * keys (never by value). The cluster is also compared with what the other words render (the neutral
 * aliases' object names, or the platform's with --names spec): a cluster that runs exactly that is a
 * naming mismatch, not drift. Pure: the kube check and regenerate fetch the live objects.
 */
import type { RenderedObject } from './types.js';
import { isJinja } from '../inventory/ansible-tagged.js';
import { CERT_MANAGER_NAMESPACE, PLATFORM_ISSUER, type NamingProfile } from './names.js';
import { renderPlatform } from './objects.js';
import { isUnknownValue } from './values.js';
import { memberOf } from '../records.js';
import { readLiveIssuer, selfSignedCaSecrets } from '../kube/live-issuer.js';

export interface LiveState {
  /** The live ClusterIssuer, or undefined when it does not exist. */
  issuer?: unknown;
  /** Data keys of each live Secret in cert-manager's namespace that was asked for (absent: missing). */
  secretKeys: Map<string, string[]>;
}

export interface Drift {
  /** One line per difference, non-secret values only. */
  differences: string[];
  /** The solver (or issuer kind) the cluster runs and the one the inventory renders, when they differ. */
  live?: string;
  rendered?: string;
  /** The inventory's issuer is none and the cluster still has the ClusterIssuer (the platform never deletes it). */
  leftover?: boolean;
}

/** The objects the inventory renders with one set of object names. */
export interface Rendering {
  profile: NamingProfile;
  objects: RenderedObject[];
  /** The inventory says it reads these names (false: tried because the inventory does not say). */
  stated?: boolean;
}

/**
 * What to compare the cluster with: the rendering in the inventory's names, or, when the inventory does
 * not say which it uses (`stated` false), in both (the inventory's default first).
 */
export function renderingsToCompare(view: {
  values: Record<string, unknown>;
  profile: NamingProfile;
  stated: boolean;
}): Rendering[] {
  // The other names are rendered even when the inventory states its own: a cluster deployed with them is a naming mismatch, not drift.
  const profiles: NamingProfile[] = [view.profile, view.profile === 'spec' ? 'platform' : 'spec'];
  return profiles.map((profile, i) => ({
    profile,
    objects: renderPlatform(view.values, profile).objects,
    stated: view.stated && i === 0,
  }));
}

export interface ClusterComparison extends Drift {
  /** The names of the rendering compared: the one the cluster matches, else the closer one. */
  profile: NamingProfile;
  /** Both sets of names were tried, and they render differently: `profile` was chosen by the cluster. */
  guessed: boolean;
  /**
   * The inventory states one set of names and the cluster runs exactly what the other set renders: not
   * drift (no deployment of this inventory changes it), but an inventory written in the wrong names.
   */
  namingMismatch?: { inventory: NamingProfile; cluster: NamingProfile; message: string; advice: string };
}

const NAMES: Record<NamingProfile, string> = {
  spec: 'the neutral aliases (docs/neutral-names.md)',
  platform: "the platform's own names (route53, cloudflare, cert-manager-...)",
};

/** The first rendering the cluster matches, or the one with the fewest differences (the first on a tie). */
export function compareWithCluster(renderings: Rendering[], live: LiveState): ClusterComparison {
  const stated = renderings.find((r) => r.stated);
  if (stated) {
    const own = issuerDrift(stated.objects, live);
    const other = renderings.find((r) => r !== stated && JSON.stringify(r.objects) !== JSON.stringify(stated.objects));
    if (own.differences.length === 0 || !other || issuerDrift(other.objects, live).differences.length > 0)
      return { ...own, profile: stated.profile, guessed: false };
    const message = `Naming mismatch, not drift: the inventory is written in ${NAMES[stated.profile]}, but the cluster runs exactly what ${NAMES[other.profile]} render (${own.differences[0]}).`;
    const advice = `Write the inventory in the names the deployment reads: cloudgate setup --names ${other.profile} rewrites it (or rename the variables as docs/neutral-names.md lists them); deploying it as it is would replace the cluster's objects.`;
    return {
      differences: [message],
      profile: stated.profile,
      guessed: false,
      namingMismatch: { inventory: stated.profile, cluster: other.profile, message, advice },
    };
  }
  const tried = renderings.map((r) => ({ profile: r.profile, drift: issuerDrift(r.objects, live) }));
  const best =
    tried.find((t) => t.drift.differences.length === 0) ??
    tried.reduce((a, b) => (b.drift.differences.length < a.drift.differences.length ? b : a));
  const differ = new Set(renderings.map((r) => JSON.stringify(r.objects))).size > 1;
  return { ...best.drift, profile: best.profile, guessed: differ };
}

/** The Secrets whose names and keys the live state must be compared with (each name once). */
export function secretsToCompare(objects: RenderedObject[]): { name: string; namespace: string; keys: string[] }[] {
  const secrets = objects
    .filter(({ object }) => object.kind === 'Secret')
    .map(({ object }) => ({
      name: object.metadata.name,
      namespace: object.metadata.namespace ?? CERT_MANAGER_NAMESPACE,
      keys: Object.keys(object.stringData ?? object.data ?? {}).sort(),
    }));
  return secrets.filter((s, i) => secrets.findIndex((t) => t.name === s.name) === i);
}

/** The name of the ClusterIssuer the rendered objects make (the platform's default when they make none). */
export function renderedIssuerName(objects: RenderedObject[]): string {
  const name = objects.find((o) => o.part === 'issuer')?.object.metadata.name;
  return typeof name === 'string' && name !== '' ? name : PLATFORM_ISSUER;
}

export function issuerDrift(objects: RenderedObject[], live: LiveState): Drift {
  const rendered = objects.find((o) => o.part === 'issuer')?.object;
  const PLATFORM_ISSUER = renderedIssuerName(objects);
  const liveIssuer = live.issuer;
  const differences: string[] = [];
  if (!rendered && liveIssuer) {
    differences.push(
      `The cluster has a ClusterIssuer "${PLATFORM_ISSUER}", but the inventory's issuer is none (the platform leaves the old one in place).`,
    );
    return { differences, leftover: true };
  }
  if (!rendered) return { differences };
  if (!liveIssuer) return { differences: [`The ClusterIssuer "${PLATFORM_ISSUER}" does not exist in the cluster.`] };

  const want = flatten(rendered.spec, 'spec');
  const have = flatten(memberOf(liveIssuer, 'spec'), 'spec');
  for (const path of new Set([...want.keys(), ...have.keys()])) {
    const a = want.get(path);
    const b = have.get(path);
    if (a === b || unknowable(a)) continue;
    if (a === undefined)
      differences.push(`${path}: set in the cluster to ${b}, not made by the inventory (edited by hand?)`);
    else if (b === undefined) differences.push(`${path}: the inventory makes ${a}, the cluster has none`);
    else differences.push(`${path}: the cluster has ${b}, the inventory makes ${a}`);
  }
  for (const secret of secretsToCompare(objects)) {
    const keys = live.secretKeys.get(secret.name);
    if (!keys) differences.push(`Secret ${secret.namespace}/${secret.name} does not exist in the cluster.`);
    else {
      const missing = secret.keys.filter((k) => !keys.includes(k));
      if (missing.length > 0)
        differences.push(
          `Secret ${secret.namespace}/${secret.name} lacks the key${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
        );
    }
  }
  // The rendered self-signed CA's Certificate tells which Secret the platform's self-signed issuer signs with.
  const hints = { selfSignedCaSecrets: selfSignedCaSecrets(objects.map((o) => o.object)) };
  const solverWant = readLiveIssuer(rendered, hints).solver;
  const solverHave = readLiveIssuer(liveIssuer, hints).solver;
  return { differences, ...(solverWant !== solverHave ? { live: solverHave, rendered: solverWant } : {}) };
}

/** A vaulted or templated value is known only at deploy time: it cannot be compared. */
function unknowable(value: string | undefined): boolean {
  return value !== undefined && (isUnknownValue(JSON.parse(value)) || isJinja(value));
}

function flatten(value: unknown, path: string, out = new Map<string, string>()): Map<string, string> {
  if (value === null || value === undefined) return out;
  if (Array.isArray(value)) value.forEach((v, i) => flatten(v, `${path}[${i}]`, out));
  else if (typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) out.set(path, '{}');
    for (const [k, v] of entries) flatten(v, `${path}.${k}`, out);
  } else out.set(path, JSON.stringify(value));
  return out;
}
