/**
 * Check `kube.issuer-drift`: does the cluster run the ClusterIssuer the inventory renders? The issuer's
 * name and the HTTP-01 solver's ingress class are the inventory's (a deployment may rename both).
 */
import type { DriftFacts } from './facts.js';
import type { CheckResult } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import { firstLine, kubectl, type KubectlOptions } from '../../kube/kubectl.js';
import type { NamesView } from '../../config/neutral-names.js';
import {
  compareWithCluster,
  renderingsToCompare,
  secretsToCompare,
  type ClusterComparison,
  type LiveState,
  type Rendering,
} from '../../render/drift.js';
import { CERT_MANAGER_NAMESPACE, PLATFORM_ISSUER } from '../../kube/platform.js';
import { asRecord, memberOf } from '../../records.js';
import { DRIFT } from './messages/issuers.js';

/** The solver's ingress class as the inventory sets it; a template (null) is not compared. */
function withIngressClass(renderings: Rendering[], ingressClass: string | null): Rendering[] {
  const copy = structuredClone(renderings);
  for (const { objects } of copy) {
    for (const { object } of objects) {
      const solvers = memberOf(memberOf(memberOf(object, 'spec'), 'acme'), 'solvers');
      for (const solver of Array.isArray(solvers) ? solvers : []) {
        const ingress = asRecord(memberOf(memberOf(solver, 'http01'), 'ingress'));
        if (ingress && 'class' in ingress) ingress.class = ingressClass ?? '{{ ingress class from a template }}';
      }
    }
  }
  return copy;
}

/** The key names of the credential Secrets the rendering names (only the names, never the values). */
async function secretKeys(
  kube: KubectlOptions,
  renderings: Rendering[],
): Promise<Map<string, string[]> | { error: string; what: string }> {
  const keys = new Map<string, string[]>();
  for (const { name } of secretsToCompare(renderings.flatMap((r) => r.objects))) {
    const got = await kubectl(
      [
        'get',
        'secret',
        `--namespace=${CERT_MANAGER_NAMESPACE}`,
        '-o',
        'go-template={{range $k, $v := .data}}{{$k}}{{"\\n"}}{{end}}',
        '--',
        name,
      ],
      kube,
    );
    if (got.exitCode === 0) keys.set(name, got.stdout.split('\n').filter(Boolean));
    else if (!/NotFound|not found/i.test(got.stderr))
      return { error: firstLine(got.stderr), what: `the Secret ${CERT_MANAGER_NAMESPACE}/${name}` };
  }
  return keys;
}

/** `view`: the inventory's values and names; when it does not say which names, both renderings are compared. `liveIssuer`: the ClusterIssuer `issuerName`, when it exists. */
export async function issuerDriftCheck(
  kube: KubectlOptions,
  view: NamesView,
  issuerName: string,
  ingressClass: string | null,
  liveIssuer: unknown,
): Promise<CheckResult<DriftFacts>> {
  const renderings = withIngressClass(renderingsToCompare(view), ingressClass);
  const keys = await secretKeys(kube, renderings);
  if ('error' in keys)
    return { status: 'fail', message: DRIFT.cannotRead(keys.what, keys.error), advice: DRIFT.checkSecretAccess };
  const live: LiveState = { issuer: liveIssuer, secretKeys: keys };
  const drift = named(compareWithCluster(renderings, live), issuerName);
  const facts = {
    differences: drift.differences.map(escapeLine),
    ...(drift.live ? { cluster: drift.live, inventory: drift.rendered } : {}),
    names: drift.profile,
    ...(drift.guessed ? { namesFrom: 'cluster' } : {}),
  };
  if (drift.differences.length === 0) {
    return live.issuer
      ? { status: 'ok', message: DRIFT.matches(escapeLine(issuerName), matchedNames(drift)), facts }
      : { status: 'ok', message: DRIFT.absentAsExpected(escapeLine(issuerName)), facts };
  }
  if (drift.namingMismatch)
    return {
      status: 'fail',
      message: escapeLine(drift.namingMismatch.message),
      advice: drift.namingMismatch.advice,
      facts: { ...facts, namingMismatch: true },
    };
  if (drift.leftover) {
    return {
      status: 'warn',
      message: drift.differences.map(escapeLine).join('; '),
      facts,
      advice: DRIFT.deleteLeftover(escapeLine(issuerName)),
    };
  }
  const headline = drift.live ? DRIFT.typeChanged(drift.live, drift.rendered) : '';
  return {
    status: 'fail',
    message: `${headline}${drift.differences.map(escapeLine).join('; ')}${closerNames(drift)}`,
    advice: drift.live ? DRIFT.deployThenRegenerate : DRIFT.deployOrRender,
    facts,
  };
}

/** The comparison speaks of the default issuer name: say the inventory's. */
function named(drift: ClusterComparison, issuerName: string): ClusterComparison {
  if (issuerName === PLATFORM_ISSUER) return drift;
  return {
    ...drift,
    differences: drift.differences.map((d) =>
      d
        .replaceAll(`"${PLATFORM_ISSUER}"`, `"${issuerName}"`)
        .replaceAll(`ClusterIssuer ${PLATFORM_ISSUER}`, `ClusterIssuer ${issuerName}`),
    ),
  };
}

const NAMES: Record<NamesView['profile'], string> = { spec: 'the neutral names', platform: "the platform's own names" };

/** Said when the inventory does not tell which names it uses, and the cluster told instead. */
function matchedNames(drift: ClusterComparison): string {
  return drift.guessed
    ? ` in ${NAMES[drift.profile]} (the inventory does not say which names it uses; the cluster's objects carry these)`
    : '';
}

function closerNames(drift: ClusterComparison): string {
  return drift.guessed
    ? ` (compared in ${NAMES[drift.profile]}, the closer of the two: the inventory does not say which names it uses, and the cluster matches neither)`
    : '';
}
