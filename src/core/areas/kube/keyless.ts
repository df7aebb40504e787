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
import { CONTEXT, CRDS, SERVICE_ACCOUNT } from './messages/cluster.js';
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
      return { status: 'fail', message: CRDS.notInstalled(CLUSTER_ISSUER_CRD), advice: CRDS.install };
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
  const facts = {
    crd: CLUSTER_ISSUER_CRD,
    versionLabel: label ?? null,
    serviceAccountRefInSchema: hasRef,
    schemaKeepsUnknownFields: open,
  };
  if (version && !atLeast(version, MIN_CERT_MANAGER)) {
    return {
      status: 'fail',
      message: CRDS.tooOld(version.join('.')),
      advice: CRDS.upgradeForKeyless,
      facts,
    };
  }
  if (!version && !hasRef && !open) {
    return { status: 'fail', message: CRDS.unlabelledOld(CLUSTER_ISSUER_CRD), advice: CRDS.upgrade, facts };
  }
  if (!version && !hasRef && open) {
    return { status: 'warn', message: CRDS.unlabelledOpen(CLUSTER_ISSUER_CRD), advice: CRDS.checkVersion, facts };
  }
  if (version && !hasRef && !open) {
    return {
      status: 'warn',
      message: CRDS.labelWithoutField(version.join('.'), CLUSTER_ISSUER_CRD),
      advice: CRDS.reapply,
      facts,
    };
  }
  return {
    status: 'ok',
    message: version ? CRDS.recentEnough(version.join('.')) : CRDS.hasField(CLUSTER_ISSUER_CRD),
    facts,
  };
}

export async function serviceAccountExists(k: KubectlOptions, s: DiscoverySettings): Promise<CheckResult> {
  const result = await kubectl(
    ['get', 'serviceaccount', `--namespace=${s.namespace}`, '-o', 'name', '--', s.serviceAccount],
    k,
  );
  if (result.exitCode === 0) return { status: 'ok', message: SERVICE_ACCOUNT.exists(s.namespace, s.serviceAccount) };
  if (/not ?found/i.test(result.stderr)) {
    return {
      status: 'fail',
      message: SERVICE_ACCOUNT.missing(s.namespace, s.serviceAccount),
      advice: SERVICE_ACCOUNT.create(s.namespace, s.serviceAccount),
    };
  }
  return {
    status: 'fail',
    message: SERVICE_ACCOUNT.readFailed(s.namespace, s.serviceAccount, firstLine(result.stderr)),
    advice: SERVICE_ACCOUNT.checkAccess(s.namespace),
  };
}

export async function tokenPermission(
  k: KubectlOptions,
  s: DiscoverySettings,
  controller: string,
): Promise<CheckResult<PermissionFacts>> {
  const as = `system:serviceaccount:${s.namespace}:${controller}`;
  // `serviceaccounts/token` would ask about a service account NAMED "token": name it, pass the subresource.
  const args = [
    'auth',
    'can-i',
    '--subresource=token',
    `--as=${as}`,
    `--namespace=${s.namespace}`,
    '--',
    'create',
    `serviceaccounts/${s.serviceAccount}`,
  ];
  const result = await kubectl(args, k);
  const answer = result.stdout.trim().split('\n').pop();
  const facts = { command: `kubectl ${args.join(' ')}`, answer };
  if (answer === 'yes') return { status: 'ok', message: SERVICE_ACCOUNT.mayRequestTokens(as, s.serviceAccount), facts };
  if (answer === 'no') {
    return {
      status: 'fail',
      message: SERVICE_ACCOUNT.mayNotRequestTokens(as, s.serviceAccount),
      advice: SERVICE_ACCOUNT.grantTokens(s.namespace, s.serviceAccount, controller),
      facts,
    };
  }
  return {
    status: 'fail',
    message: SERVICE_ACCOUNT.canIFailed(firstLine(result.stderr) || CONTEXT.exitCode(result.exitCode)),
    advice: SERVICE_ACCOUNT.checkImpersonation,
    facts,
  };
}

function kubectlFailure(error: unknown): CheckResult {
  if (error instanceof KubectlError)
    return { status: 'fail', message: error.message, advice: SERVICE_ACCOUNT.checkAccessWithContext };
  throw error;
}
