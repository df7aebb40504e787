/**
 * The kube checks of keyless route53 (auth kubernetes) (cert-manager 1.15.0 or newer is needed for it):
 * cert-manager's CRDs are new enough, the service account exists, and the controller may request
 * tokens for it. The checks themselves are made in checks.ts.
 */
import type { CrdFacts, PermissionFacts } from './facts.js';
import type { CheckResult } from '../../doctor/types.js';
import { firstLine, kubectl, KubectlError, kubectlJson, type KubectlOptions } from '../../kube/kubectl.js';
import type { DiscoverySettings } from '../../config/discovery-settings.js';
import { MIN_CERT_MANAGER } from '../../kube/platform.js';
const CLUSTER_ISSUER_CRD = 'clusterissuers.cert-manager.io';

interface Crd {
  metadata: { labels?: Record<string, string> };
  spec?: { versions?: { name: string; schema?: unknown }[] };
}

/** "v1.15.5" / "1.15.0-beta.1" / "cert-manager-v1.14.2" → [1, 15, 5]. */
export function parseVersion(text: string | undefined): [number, number, number] | undefined {
  const m = /v?(\d+)\.(\d+)\.(\d+)/.exec(text ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function atLeast(version: [number, number, number], minimum: string): boolean {
  const min = parseVersion(minimum)!;
  for (let i = 0; i < 3; i++) if (version[i] !== min[i]) return version[i] > min[i];
  return true;
}

/** The route53-style solver's `auth.kubernetes.serviceAccountRef`, which first appeared in 1.15.0. */
function schemaHasServiceAccountRef(crd: Crd): boolean {
  return JSON.stringify(crd.spec?.versions ?? []).includes('"serviceAccountRef"');
}

function schemaKeepsUnknownFields(crd: Crd): boolean {
  return /"x-kubernetes-preserve-unknown-fields":true/.test(JSON.stringify(crd.spec?.versions ?? []));
}

export async function crdVersion(k: KubectlOptions): Promise<CheckResult<CrdFacts>> {
  let crd: Crd;
  try {
    crd = await kubectlJson<Crd>(['get', 'crd', CLUSTER_ISSUER_CRD], k);
  } catch (error) {
    if (error instanceof KubectlError && /not ?found/i.test(error.result.stderr)) {
      return { status: 'fail', message: `The CRD ${CLUSTER_ISSUER_CRD} is not installed: cert-manager is missing.`, advice: `Install cert-manager ${MIN_CERT_MANAGER} or newer with its CRDs.` };
    }
    return kubectlFailure(error);
  }
  const labels = crd.metadata.labels ?? {};
  const label = labels['app.kubernetes.io/version'] ?? labels['helm.sh/chart'];
  const version = parseVersion(label);
  const hasRef = schemaHasServiceAccountRef(crd);
  // The version label decides first: a schema that keeps unknown fields (x-kubernetes-preserve-unknown-fields)
  // need not spell out serviceAccountRef, so its absence there says nothing about the version.
  const open = schemaKeepsUnknownFields(crd);
  const facts = { crd: CLUSTER_ISSUER_CRD, versionLabel: label ?? null, serviceAccountRefInSchema: hasRef, schemaKeepsUnknownFields: open };
  if (version && !atLeast(version, MIN_CERT_MANAGER)) {
    return {
      status: 'fail',
      message: `cert-manager CRDs are ${version.join('.')}; route53 auth kubernetes needs ${MIN_CERT_MANAGER} or newer (older CRDs lack serviceAccountRef for this solver).`,
      advice: `Upgrade cert-manager and its CRDs to ${MIN_CERT_MANAGER} or newer before choosing route53 auth kubernetes.`,
      facts,
    };
  }
  if (!version && !hasRef && !open) {
    return { status: 'fail', message: `${CLUSTER_ISSUER_CRD} carries no version label and its schema lacks serviceAccountRef: older than ${MIN_CERT_MANAGER}.`, advice: `Upgrade cert-manager and its CRDs to ${MIN_CERT_MANAGER} or newer.`, facts };
  }
  if (!version && !hasRef && open) {
    return { status: 'warn', message: `${CLUSTER_ISSUER_CRD} carries no version label and its schema keeps unknown fields: its version cannot be told.`, advice: `Check that cert-manager is ${MIN_CERT_MANAGER} or newer (kubectl get deploy -n cert-manager -o wide).`, facts };
  }
  if (version && !hasRef && !open) {
    return { status: 'warn', message: `cert-manager CRDs say ${version.join('.')}, but the ${CLUSTER_ISSUER_CRD} schema lacks serviceAccountRef.`, advice: 'The CRDs were probably not upgraded with the chart: re-apply the CRDs of the installed version.', facts };
  }
  return { status: 'ok', message: version ? `cert-manager CRDs are ${version.join('.')} (≥ ${MIN_CERT_MANAGER}).` : `The ${CLUSTER_ISSUER_CRD} schema has serviceAccountRef (≥ ${MIN_CERT_MANAGER}).`, facts };
}

export async function serviceAccountExists(k: KubectlOptions, s: DiscoverySettings): Promise<CheckResult> {
  const result = await kubectl(['get', 'serviceaccount', `--namespace=${s.namespace}`, '-o', 'name', '--', s.serviceAccount], k);
  if (result.exitCode === 0) return { status: 'ok', message: `The service account ${s.namespace}/${s.serviceAccount} exists.` };
  if (/not ?found/i.test(result.stderr)) {
    return {
      status: 'fail',
      message: `The service account ${s.serviceAccount} does not exist in namespace ${s.namespace}.`,
      advice:
        `Deploy with cluster_issuer_acme_route53_auth: kubernetes (the platform creates it), or create it: kubectl create serviceaccount --namespace=${s.namespace} -- ${s.serviceAccount}. ` +
        'A custom name goes in cluster_issuer_acme_route53_service_account_name and in the role\'s trust policy subject.',
    };
  }
  return { status: 'fail', message: `kubectl get serviceaccount ${s.serviceAccount} -n ${s.namespace} failed: ${firstLine(result.stderr)}`, advice: 'Check your access to the cluster (kubectl auth can-i get serviceaccounts -n ' + s.namespace + ').' };
}

export async function tokenPermission(k: KubectlOptions, s: DiscoverySettings, controller: string): Promise<CheckResult<PermissionFacts>> {
  const as = `system:serviceaccount:${s.namespace}:${controller}`;
  // `serviceaccounts/token` would ask about a service account NAMED "token": name it, pass the subresource.
  const args = ['auth', 'can-i', '--subresource=token', `--as=${as}`, `--namespace=${s.namespace}`, '--', 'create', `serviceaccounts/${s.serviceAccount}`];
  const result = await kubectl(args, k);
  const answer = result.stdout.trim().split('\n').pop();
  const facts = { command: `kubectl ${args.join(' ')}`, answer };
  if (answer === 'yes') return { status: 'ok', message: `${as} may create tokens for ${s.serviceAccount}.`, facts };
  if (answer === 'no') {
    return {
      status: 'fail',
      message: `${as} may not create tokens for ${s.serviceAccount}: cert-manager cannot get credentials.`,
      advice:
        `Create a Role in ${s.namespace} allowing "create" on serviceaccounts/token with resourceNames [${s.serviceAccount}] and bind it to the ` +
        `service account ${controller} (the platform does this for route53 auth kubernetes; check that the deployment ran).`,
      facts,
    };
  }
  return { status: 'fail', message: `kubectl auth can-i failed: ${firstLine(result.stderr) || `exit code ${result.exitCode}`}.`, advice: 'Check your access to the cluster; impersonation (--as) needs the "impersonate" permission.', facts };
}

function kubectlFailure(error: unknown): CheckResult {
  if (error instanceof KubectlError) return { status: 'fail', message: error.message, advice: 'Check your access to the cluster with the same kubectl context.' };
  throw error;
}
