/**
 * `cloudgate renew NAMESPACE/NAME...`: what `cmctl renew` does. It sets the Certificate's `Issuing`
 * condition to True with reason ManuallyTriggered (the status subresource, guarded by the object's
 * resourceVersion), and cert-manager starts an issuance at once, back-off or not. Nothing is deleted:
 * the secret keeps serving the current certificate until the new one is stored.
 *
 * Two cases are said instead of done: a Certificate cert-manager is already issuing (nothing to start),
 * and one whose ACME CA has rate-limited it (a new order now counts against the limit again; --force
 * renews anyway).
 */
import { escapeLine } from '../../escape.js';
import { firstLine, kubectl, type KubectlOptions } from '../../kube/kubectl.js';
import { readCondition, type CmObject } from '../../kube/objects.js';
import { refText, type ObjectRef } from '../../kube/object-ref.js';
import { certificateStatus, type CertificateStatus } from './status-certificate.js';
import { RENEW } from './messages/certificates.js';

export type RenewResult = 'triggered' | 'already-issuing' | 'rate-limited' | 'failed';

export interface RenewOutcome {
  namespace: string;
  name: string;
  result: RenewResult;
  message: string;
}

export interface RenewReport {
  schema: 'cloudgate.renew/v1';
  certificates: RenewOutcome[];
}

const REASON = 'ManuallyTriggered';
const MESSAGE = 'Certificate re-issuance manually triggered';
const CONFLICT_RETRIES = 3;

/** The conditions with Issuing set as cmctl sets it (the others kept, in their order). */
export function triggeredConditions(certificate: CmObject, now: Date): unknown[] {
  const conditions = certificate.status?.conditions ?? [];
  const issuing = {
    type: 'Issuing',
    status: 'True',
    reason: REASON,
    message: MESSAGE,
    lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z'),
    ...(typeof certificate.metadata?.generation === 'number'
      ? { observedGeneration: certificate.metadata.generation }
      : {}),
  };
  const at = conditions.findIndex((c) => c?.type === 'Issuing');
  return at < 0 ? [...conditions, issuing] : conditions.map((c, i) => (i === at ? issuing : c));
}

async function triggerOne(
  kube: KubectlOptions,
  ref: ObjectRef,
  status: CertificateStatus,
  force: boolean,
  now: Date,
): Promise<RenewOutcome> {
  const base = { namespace: ref.namespace, name: ref.name };
  for (let attempt = 0; ; attempt++) {
    const got = await kubectl(
      ['get', 'certificates.cert-manager.io', `--namespace=${ref.namespace}`, '-o', 'json', '--', ref.name],
      kube,
    );
    if (got.exitCode !== 0)
      return { ...base, result: 'failed', message: RENEW.cannotReread(escapeLine(firstLine(got.stderr))) };
    // The Certificate as kubectl returned it: its conditions are read one by one.
    const certificate = JSON.parse(got.stdout) as CmObject;
    const issuing = readCondition(certificate, 'Issuing');
    if (issuing?.status === 'True') {
      return {
        ...base,
        result: 'already-issuing',
        message: RENEW.alreadyIssuing(escapeLine(issuing.reason ?? 'no reason')),
      };
    }
    const retryAt = status.verdict.cause === 'acme:rateLimited' ? status.verdict.retryAt : undefined;
    if (retryAt && Date.parse(retryAt) > now.getTime() && !force) {
      return { ...base, result: 'rate-limited', message: RENEW.rateLimited(retryAt) };
    }
    const patch = JSON.stringify({
      metadata: { resourceVersion: certificate.metadata?.resourceVersion },
      status: { conditions: triggeredConditions(certificate, now) },
    });
    const result = await kubectl(
      [
        'patch',
        'certificates.cert-manager.io',
        `--namespace=${ref.namespace}`,
        '--subresource=status',
        '--type=merge',
        '-p',
        patch,
        '--',
        ref.name,
      ],
      kube,
    );
    if (result.exitCode === 0) return { ...base, result: 'triggered', message: RENEW.triggered(refText(ref)) };
    // Someone changed it meanwhile (cert-manager itself, often): read it again and retry, as an update would.
    if (/Conflict|has been modified/.test(result.stderr) && attempt < CONFLICT_RETRIES) continue;
    return {
      ...base,
      result: 'failed',
      message: RENEW.triggerFailed(
        refText(ref),
        escapeLine(firstLine(result.stderr) || RENEW.kubectlExitCode(result.exitCode)),
      ),
    };
  }
}

/**
 * Renews each Certificate. Every one is read first, so a name that does not exist stops the run before
 * anything is changed (a usage error, as status certificate says it).
 */
export async function renewCertificates(
  kube: KubectlOptions,
  refs: ObjectRef[],
  options: { force?: boolean; now?: Date } = {},
): Promise<RenewReport> {
  const now = options.now ?? new Date();
  // Read as status certificate reads it: the walk says whether a rate limit holds.
  const statuses: CertificateStatus[] = [];
  for (const ref of refs) statuses.push(await certificateStatus(kube, ref, { now }));
  const certificates: RenewOutcome[] = [];
  for (const [i, ref] of refs.entries())
    certificates.push(await triggerOne(kube, ref, statuses[i], options.force ?? false, now));
  return { schema: 'cloudgate.renew/v1', certificates };
}

export const renewFailed = (report: RenewReport) =>
  report.certificates.some((c) => c.result === 'failed' || c.result === 'rate-limited');
