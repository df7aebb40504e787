/**
 * What `cloudgate regenerate` reads from the cluster: is the new issuer deployed, which certificate
 * secrets the old one left, and the lines that say so (their deletion: regenerate-delete.ts).
 */
import { escapeLine } from '../escape.js';
import { kubectlGet, kubectlJson, KubectlError, type KubectlOptions } from '../kube/kubectl.js';
import { compareWithCluster, type LiveState, type Rendering } from '../render/drift.js';
import type { SetupPlan } from './plan.js';
import { PLATFORM_ISSUER, summarizeSecrets, type StaleSelection } from './regenerate.js';
import { specChangedAt, subjectOf, type IssuerIdentity } from './regenerate-issued.js';
import { selectIssuedSecrets, summarizeCertificates, type IssuedSelection } from './regenerate-select.js';
import { capped } from '../bounded.js';
import { readLiveIssuer } from '../kube/live-issuer.js';

/** The secrets and Certificates of `namespaces`, and which secrets the replaced issuer (null: a template name) left to delete. */
export async function findSecrets(
  kube: KubectlOptions,
  namespaces: string[],
  issuerName: string | null,
  protectedNames: string[],
  current: IssuerIdentity,
): Promise<IssuedSelection> {
  const secrets = [];
  const certificates = [];
  for (const namespace of namespaces) {
    // The list carries the secrets' data too: only names, types and annotations are kept, nothing else is printed.
    const list = await kubectlJson<unknown>(['get', 'secrets', `--namespace=${namespace}`], {
      ...kube,
      step: `listing the secrets in ${namespace}`,
    });
    secrets.push(...summarizeSecrets(list));
    const got = await kubectlGet(['get', 'certificates.cert-manager.io', `--namespace=${namespace}`], {
      ...kube,
      step: `listing the Certificates in ${namespace}`,
    });
    // Without cert-manager's CRD there is no Certificate: nothing would issue a deleted secret again.
    if (!got.ok && !got.notFound)
      throw new KubectlError(`Cannot list the Certificates in ${namespace}: ${got.error}`, {
        exitCode: 1,
        stdout: '',
        stderr: got.error,
      });
    if (got.ok) certificates.push(...summarizeCertificates(got.value));
  }
  const selection = selectIssuedSecrets(secrets, certificates, { issuerName, protectedNames, current });
  return issuerName !== null && !(await clusterIssuerExists(kube, issuerName))
    ? { ...selection, replacedMissing: true }
    : selection;
}

/** Whether the cluster has the ClusterIssuer `name`, read as every live issuer is (live-issuer.ts). */
async function clusterIssuerExists(kube: KubectlOptions, name: string): Promise<boolean> {
  const got = await kubectlGet(['get', 'clusterissuer', '--', name], {
    ...kube,
    step: `reading the ClusterIssuer "${name}"`,
  });
  if (!got.ok && !got.notFound)
    throw new KubectlError(`Cannot read the ClusterIssuer "${name}": ${got.error}`, {
      exitCode: 1,
      stdout: '',
      stderr: got.error,
    });
  return got.ok && readLiveIssuer(got.value).name === name;
}

/**
 * Deleting before the platform runs with the new issuer lets cert-manager re-issue from the old one.
 * The live ClusterIssuer and its credential Secrets must be what the new inventory renders.
 */
export function notDeployed(
  plan: SetupPlan,
  renderings: Rendering[],
  live: LiveState,
  issuerName: string = PLATFORM_ISSUER,
): string | undefined {
  if (plan.issuer === 'none') return undefined;
  if (!live.issuer)
    return `The ClusterIssuer "${issuerName}" does not exist in the cluster yet: deleting the secrets now would leave nothing to issue them again. Run the deployment first.`;
  const drift = compareWithCluster(renderings, live);
  if (drift.differences.length === 0) return undefined;
  const what = drift.live
    ? `the cluster runs ${drift.live}, the inventory says ${drift.rendered}`
    : drift.differences.join('; ');
  return `The ClusterIssuer "${issuerName}" in the cluster is not yet what the new inventory makes (${what}): deleting the secrets now would re-issue them from the old issuer. Run the deployment first.`;
}

/** What the current issuer issues, so that its own secrets are kept (a second run deletes nothing). */
export function currentIssuer(plan: SetupPlan, liveIssuer: unknown): IssuerIdentity {
  const issuerSubject =
    plan.issuer === 'ca'
      ? subjectOf(plan.values.cluster_issuer_ca_certificate)
      : plan.issuer === 'self-signed'
        ? 'CN=selfsigned-ca'
        : undefined;
  return {
    ...(issuerSubject ? { issuerSubject } : {}),
    ...(liveIssuer ? { changedAt: specChangedAt(liveIssuer) } : {}),
  };
}

/**
 * The review of the selection. Names, annotations and reasons come from the cluster: each line is escaped
 * whole, so a newline in an annotation cannot forge a line of the review.
 */
export function selectionLines(
  selection: StaleSelection & Partial<IssuedSelection>,
  issuerName: string | null,
  namespaces: string[],
): string[] {
  const lines: string[] = [];
  const where = namespaces.join(', ');
  if (selection.replacedMissing && issuerName !== null) {
    // Nothing to name as the issuer being replaced: said so, and what still names it is listed as such.
    lines.push(`No ClusterIssuer "${issuerName}" exists in the cluster: no issuer is being replaced.`);
    if (selection.stale.length) {
      lines.push(
        `Certificate secrets that name ClusterIssuer "${issuerName}" as their issuer (${selection.stale.length}), to delete so the new issuer issues them again:`,
      );
      for (const s of selection.stale)
        lines.push(`  ${s.namespace}/${s.name}${s.certificate ? `  (Certificate ${s.certificate})` : ''}`);
    }
  } else if (selection.undecided) {
    lines.push(
      `! No secret is deleted automatically: ${selection.undecided}. Delete by hand, after the deployment, the TLS secrets kept below that the replaced issuer issued.`,
    );
  } else if (selection.stale.length === 0) {
    lines.push(
      `No certificate secret issued by ClusterIssuer "${issuerName}" in ${where} that a Certificate issues again.`,
    );
  } else {
    lines.push(
      `Certificate secrets issued by ClusterIssuer "${issuerName}" (${selection.stale.length}), to delete so the new issuer issues them again:`,
    );
    for (const s of selection.stale)
      lines.push(`  ${s.namespace}/${s.name}${s.certificate ? `  (Certificate ${s.certificate})` : ''}`);
  }
  const kept = capped(selection.kept, 200);
  for (const k of kept.shown) lines.push(`  kept ${k.namespace}/${k.name}: ${k.reason}`);
  if (kept.more) lines.push(`  kept ${kept.more} more certificate secret(s), not listed`);
  if (selection.unrelated)
    lines.push(
      `  kept ${selection.unrelated} other secret(s) in ${where}: not certificate secrets (no TLS type, no cert-manager annotation, no Certificate names them)`,
    );
  return lines.map(escapeLine);
}
