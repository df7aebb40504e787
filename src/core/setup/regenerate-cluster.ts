/**
 * What `cloudgate regenerate` reads from and does to the cluster: is the new issuer deployed, which
 * certificate secrets the old one left, their deletion one by one, and the lines that say so.
 */
import { firstLine, kubectl, kubectlJson, KubectlError, type KubectlOptions } from '../kube/kubectl.js';
import { compareWithCluster, type LiveState, type Rendering } from '../render/drift.js';
import type { SetupPlan } from './plan.js';
import { PLATFORM_ISSUER, deleteArgs, selectStaleSecrets, summarizeSecrets, type DeletionReport, type StaleSelection } from './regenerate.js';
import { specChangedAt, subjectOf, type IssuerIdentity } from './regenerate-issued.js';

export async function findSecrets(kube: KubectlOptions, namespaces: string[], issuerName: string, protectedNames: string[], current: IssuerIdentity): Promise<StaleSelection> {
  const secrets = [];
  for (const namespace of namespaces) {
    // The list carries the secrets' data too: only names, types and annotations are kept, nothing else is printed.
    const list = await kubectlJson<unknown>(['get', 'secrets', `--namespace=${namespace}`], kube);
    secrets.push(...summarizeSecrets(list));
  }
  return selectStaleSecrets(secrets, { issuerName, protectedNames, current });
}

/**
 * Deleting before the platform runs with the new issuer lets cert-manager re-issue from the old one.
 * The live ClusterIssuer and its credential Secrets must be what the new inventory renders.
 */
export function notDeployed(plan: SetupPlan, renderings: Rendering[], live: LiveState): string | undefined {
  if (plan.issuer === 'none') return undefined;
  if (!live.issuer) return `The ClusterIssuer "${PLATFORM_ISSUER}" does not exist in the cluster yet: deleting the secrets now would leave nothing to issue them again. Run the deployment first.`;
  const drift = compareWithCluster(renderings, live);
  if (drift.differences.length === 0) return undefined;
  const what = drift.live ? `the cluster runs ${drift.live}, the inventory says ${drift.rendered}` : drift.differences.join('; ');
  return `The ClusterIssuer "${PLATFORM_ISSUER}" in the cluster is not yet what the new inventory makes (${what}): deleting the secrets now would re-issue them from the old issuer. Run the deployment first.`;
}

/** What the current issuer issues, so that its own secrets are kept (a second run deletes nothing). */
export function currentIssuer(plan: SetupPlan, liveIssuer: unknown): IssuerIdentity {
  const issuerSubject = plan.issuer === 'ca' ? subjectOf(plan.values.cluster_issuer_ca_certificate)
    : plan.issuer === 'self-signed' ? 'CN=selfsigned-ca' : undefined;
  return { ...(issuerSubject ? { issuerSubject } : {}), ...(liveIssuer ? { changedAt: specChangedAt(liveIssuer) } : {}) };
}

export function selectionLines(selection: StaleSelection, issuerName: string, namespaces: string[]): string[] {
  const lines: string[] = [];
  if (selection.stale.length === 0) {
    lines.push(`No certificate secret issued by ClusterIssuer "${issuerName}" in ${namespaces.join(', ')}.`);
  } else {
    lines.push(`Certificate secrets issued by ClusterIssuer "${issuerName}" (${selection.stale.length}), to delete so the new issuer issues them again:`);
    for (const s of selection.stale) lines.push(`  ${s.namespace}/${s.name}${s.certificate ? `  (Certificate ${s.certificate})` : ''}`);
  }
  for (const k of selection.kept) lines.push(`  kept ${k.namespace}/${k.name}: ${k.reason}`);
  return lines;
}

/** Deletes one by one; stops at the first failure and says what is left. */
export async function deleteSecrets(kube: KubectlOptions, stale: StaleSelection['stale']): Promise<DeletionReport> {
  const report: DeletionReport = { deleted: [], remaining: [] };
  for (let i = 0; i < stale.length; i++) {
    const secret = stale[i]!;
    let error: string | undefined;
    try {
      const result = await kubectl(deleteArgs(secret), kube);
      if (result.exitCode !== 0 && !/NotFound/.test(result.stderr)) error = firstLine(result.stderr) || `kubectl exit code ${result.exitCode}`;
    } catch (e) {
      error = e instanceof KubectlError ? e.message : (e as Error).message;
    }
    if (error) {
      report.failed = { secret, error };
      report.remaining = stale.slice(i + 1);
      return report;
    }
    report.deleted.push(secret);
  }
  return report;
}
