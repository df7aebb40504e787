/** Check `kube.issuer-drift`: does the cluster run the ClusterIssuer the inventory renders? */
import type { CheckResult } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import type { KubectlOptions } from '../../kube/kubectl.js';
import type { NamesView } from '../../config/platform-names.js';
import { compareWithCluster, renderingsToCompare, type ClusterComparison } from '../../render/drift.js';
import { readLiveState } from '../../render/live-state.js';
import { PLATFORM_ISSUER } from '../../kube/platform.js';

/** `view`: the inventory's values and names; when it does not say which names, both renderings are compared. */
export async function issuerDriftCheck(kube: KubectlOptions, view: NamesView): Promise<CheckResult> {
  const renderings = renderingsToCompare(view);
  const live = await readLiveState(kube, renderings.flatMap((r) => r.objects));
  if ('error' in live) return { status: 'fail', message: `Cannot read ${live.what}: ${live.error}`, advice: 'Check your access to the cluster (kubectl auth can-i get clusterissuers; get secrets -n cert-manager).' };
  const drift = compareWithCluster(renderings, live);
  const details = {
    differences: drift.differences.map(escapeLine), ...(drift.live ? { cluster: drift.live, inventory: drift.rendered } : {}),
    names: drift.profile, ...(drift.guessed ? { namesFrom: 'cluster' } : {}),
  };
  if (drift.differences.length === 0) {
    return live.issuer
      ? { status: 'ok', message: `The cluster's ClusterIssuer "${PLATFORM_ISSUER}" and its credential Secrets match what the inventory renders${matchedNames(drift)}.`, details }
      : { status: 'ok', message: `No ClusterIssuer "${PLATFORM_ISSUER}", as the inventory's issuer none expects.`, details };
  }
  if (drift.namingMismatch) return { status: 'fail', message: escapeLine(drift.namingMismatch.message), advice: drift.namingMismatch.advice, details: { ...details, namingMismatch: true } };
  if (drift.leftover) {
    return {
      status: 'warn', message: drift.differences.map(escapeLine).join('; '), details,
      advice: `The platform never deletes it with issuer none, and deploying does not either. Once no Certificate uses it any more (kubectl get certificates -A -o wide shows each one's issuer), delete it by hand: kubectl delete clusterissuer ${PLATFORM_ISSUER}`,
    };
  }
  const headline = drift.live ? `The cluster runs ${drift.live}, the inventory says ${drift.rendered}: ` : '';
  return {
    status: 'fail',
    message: `${headline}${drift.differences.map(escapeLine).join('; ')}${closerNames(drift)}`,
    advice: drift.live
      ? 'The inventory was changed but not deployed: run the deployment, then "cloudgate regenerate".'
      : 'Either the inventory changed since the last deployment (run it), or someone edited the cluster by hand (deploying restores the inventory\'s values). "cloudgate render" shows what the inventory makes.',
    details,
  };
}

const NAMES: Record<NamesView['profile'], string> = { spec: 'the neutral names', platform: "the platform's own names" };

/** Said when the inventory does not tell which names it uses, and the cluster told instead. */
function matchedNames(drift: ClusterComparison): string {
  return drift.guessed ? ` in ${NAMES[drift.profile]} (the inventory does not say which names it uses; the cluster's objects carry these)` : '';
}

function closerNames(drift: ClusterComparison): string {
  return drift.guessed ? ` (compared in ${NAMES[drift.profile]}, the closer of the two: the inventory does not say which names it uses, and the cluster matches neither)` : '';
}
