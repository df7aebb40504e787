/**
 * Doctor checks of the live certificate objects (group `kube`): the platform's ClusterIssuer
 * (`kube.issuer`), the Certificates of the platform namespace (`kube.certificates`, with the deepest
 * reason of each one not Ready), a supplied wildcard's TLS secret (`kube.wildcard-secret`) and the TLS
 * secrets of every platform ingress (`kube.ingress-secrets`). kubectl through kube.ts; `skip` without a cluster.
 */
import { kubeOptionsFor } from '../../kube/options.js';
import type { CheckProvider } from '../../doctor/input.js';
import type { Check, CheckResult, Status } from '../../doctor/types.js';
import { kubeAvailability, kubectlGet, type KubectlOptions } from '../../kube/kubectl.js';
import { liveIssuerType } from '../../setup/regenerate.js';
import { conditionOf, INGRESS_NAMESPACES, PLATFORM_ISSUER, PLATFORM_NAMESPACE } from '../../kube/platform.js';
import { registerSecret } from '../../secrets.js';
import { expectationsFrom } from '../../config/expectations.js';
import { inventoryView } from '../../inventory/inventory.js';
import { examine } from '../../tls/examine.js';
import { issuerDriftCheck } from './issuer-drift.js';
import { issuanceCause, type CmObject, type IssuanceObjects } from './certificate-status.js';
import { ingressSecretsCheck } from './ingress-secrets.js';

/** Advice per cert-manager reason. */
const ISSUER_ADVICE: Record<string, string> = {
  ErrRegisterACMEAccount: 'cert-manager could not register the ACME account: check cluster_issuer_acme_email, cluster_issuer_acme_server (cloudgate doctor --only acme) and, for a private ACME CA, cluster_issuer_acme_private_ca.',
  ErrGetKeyPair: 'cert-manager cannot read the CA secret: check that it exists in the cert-manager namespace with tls.crt and tls.key (cluster_issuer_ca_certificate / _private_key).',
  ErrInvalidKeyPair: 'The CA secret\'s tls.key does not match its tls.crt: check cluster_issuer_ca_certificate (issuer first) and cluster_issuer_ca_private_key (cloudgate doctor --only certificate).',
  AuthFailed: 'The commercial CA refused the credentials: check cluster_issuer_commercialca_access_token (or username/password) and the zone.',
  ErrorSetup: 'The issuer could not be set up: read the message above and the cert-manager controller log (kubectl logs -n cert-manager deploy/cert-manager).',
  InvalidConfig: 'The issuer\'s configuration is invalid: compare the inventory with "cloudgate doctor --only inventory" and redeploy.',
};

export const provideChecks: CheckProvider = async (input) => {
  const view = await inventoryView(input);
  const { values } = view;
  const expected = expectationsFrom(values, input.inventoryPath);
  const kube = kubeOptionsFor(input);
  const cluster = async (): Promise<CheckResult | undefined> => {
    const available = await kubeAvailability(kube);
    if (available.ok) {
      kube.context = available.context;
      return undefined;
    }
    return { status: 'skip', message: `No cluster to ask: ${available.reason}` };
  };
  const checks: Check[] = [
    {
      id: 'kube.issuer',
      group: 'kube',
      title: `ClusterIssuer "${PLATFORM_ISSUER}" is Ready`,
      run: async (ctx) => (await cluster()) ?? issuerCheck({ ...kube, signal: ctx.signal }, expected.issuerType),
    },
    {
      id: 'kube.certificates',
      group: 'kube',
      title: `Certificates in ${PLATFORM_NAMESPACE} are Ready`,
      // The Certificates, then (when one is not Ready) their requests, orders and challenges.
      timeoutMs: input.network.timeoutMs * 3,
      run: async (ctx) => (await cluster()) ?? certificatesCheck({ ...kube, signal: ctx.signal }, expected.issuerType),
    },
    {
      id: 'kube.issuer-drift',
      group: 'kube',
      title: `ClusterIssuer "${PLATFORM_ISSUER}" matches the inventory`,
      run: async (ctx) => (await cluster()) ?? issuerDriftCheck({ ...kube, signal: ctx.signal }, view),
    },
    {
      id: 'kube.wildcard-secret',
      group: 'kube',
      title: 'Supplied wildcard certificate secret',
      run: async (ctx) => {
        if (expected.issuerType !== 'none' || !expected.suppliedSecret) {
          return { status: 'skip', message: 'No supplied wildcard: the inventory does not set cluster_issuer_type: none with cloud_helm_ingress_secret_name.' };
        }
        return (await cluster()) ?? wildcardSecretCheck({ ...kube, signal: ctx.signal }, expected.suppliedSecret, expected.wildcardDomain);
      },
    },
    {
      id: 'kube.ingress-secrets',
      group: 'kube',
      title: `TLS secrets of the ingresses in ${INGRESS_NAMESPACES.join(', ')}`,
      // Two rounds of kubectl calls, each allowed the network timeout.
      timeoutMs: input.network.timeoutMs * 3,
      run: async (ctx) => (await cluster()) ?? ingressSecretsCheck({ ...kube, signal: ctx.signal }, expected),
    },
  ];
  return checks;
};


async function issuerCheck(kube: KubectlOptions, issuerType: string | undefined): Promise<CheckResult> {
  if (issuerType === 'none') return { status: 'skip', message: 'cluster_issuer_type is none: the platform issues nothing (see kube.wildcard-secret).' };
  const got = await kubectlGet(['get', 'clusterissuer', '--', PLATFORM_ISSUER], kube);
  if (!got.ok) {
    return {
      status: 'fail',
      message: got.notFound ? `The ClusterIssuer "${PLATFORM_ISSUER}" does not exist (${got.error}).` : `Cannot read the ClusterIssuer "${PLATFORM_ISSUER}": ${got.error}`,
      advice: got.notFound ? 'Deploy the platform with this inventory (cert-manager and its CRDs must be installed first).' : 'Check your access to the cluster (kubectl auth can-i get clusterissuers).',
    };
  }
  return issuerResult(got.value, issuerType);
}

/** The judgement of the live ClusterIssuer against the inventory's issuer type (pure). */
export function issuerResult(issuer: unknown, issuerType: string | undefined): CheckResult {
  const ready = conditionOf(issuer, 'Ready');
  const liveType = liveIssuerType(issuer);
  const details = { type: liveType, ready: ready?.status, reason: ready?.reason, message: ready?.message };
  const said = ready ? `${ready.reason ?? 'no reason'}${ready.message ? `: ${ready.message}` : ''}` : '';
  if (ready?.status === 'False') {
    return { status: 'fail', message: `ClusterIssuer "${PLATFORM_ISSUER}" is not Ready (${said}).`, advice: ISSUER_ADVICE[ready.reason ?? ''] ?? 'Read the message above and "kubectl describe clusterissuer atmosphere".', details };
  }
  if (ready?.status !== 'True') {
    return { status: 'warn', message: `ClusterIssuer "${PLATFORM_ISSUER}" has no Ready condition yet${said ? ` (${said})` : ''}.`, advice: 'cert-manager has not processed it yet; check that the cert-manager controller runs (kubectl get pods -n cert-manager).', details };
  }
  if (issuerType && liveType && liveType !== issuerType) {
    return {
      status: 'warn',
      message: `ClusterIssuer "${PLATFORM_ISSUER}" is Ready but of type ${liveType}, while the inventory says ${issuerType}.`,
      advice: 'Deploy the inventory, then run "cloudgate regenerate" so the certificates are issued by the new issuer.',
      details,
    };
  }
  return { status: 'ok', message: `ClusterIssuer "${PLATFORM_ISSUER}" (${liveType ?? 'unknown type'}) is Ready (${said}).`, details };
}

async function certificatesCheck(kube: KubectlOptions, issuerType: string | undefined): Promise<CheckResult> {
  const got = await kubectlGet(['get', 'certificates.cert-manager.io', '--namespace', PLATFORM_NAMESPACE], kube);
  if (!got.ok) {
    return {
      status: 'fail',
      message: `Cannot list the Certificates in ${PLATFORM_NAMESPACE}: ${got.error}`,
      advice: got.notFound ? 'cert-manager\'s CRDs are not installed: deploy cert-manager first.' : 'Check your access to the cluster.',
    };
  }
  const items = ((got.value as { items?: unknown[] }).items ?? []) as CertificateObject[];
  const allReady = items.every((item) => conditionOf(item, 'Ready')?.status === 'True');
  return certificatesResult(items, issuerType, allReady ? undefined : await issuanceObjects(kube));
}

type CertificateObject = CmObject & { metadata?: { name?: string }; spec?: { secretName?: string; issuerRef?: { name?: string } }; status?: { notAfter?: string } };
type Issuance = { ok: true; objects: IssuanceObjects } | { ok: false; error: string };

/**
 * The judgement of the platform's Certificates (pure): each one's Ready condition and, for those not
 * Ready, the deepest cause found in `issuance` (read only when one is not Ready).
 */
export function certificatesResult(items: CertificateObject[], issuerType: string | undefined, issuance?: Issuance): CheckResult {
  if (items.length === 0) {
    return issuerType === 'none'
      ? { status: 'ok', message: `No Certificate in ${PLATFORM_NAMESPACE}, as expected with a supplied wildcard (issuer none).` }
      : { status: 'warn', message: `No Certificate in ${PLATFORM_NAMESPACE}.`, advice: 'The platform has not been deployed with this inventory yet, or its ingresses lack the cert-manager annotation.' };
  }
  const rows = items.map((item) => {
    const ready = conditionOf(item, 'Ready');
    const status: Status = ready?.status === 'True' ? 'ok' : ready?.status === 'False' ? 'fail' : 'warn';
    const name = item.metadata?.name ?? '?';
    return {
      name,
      status,
      secret: item.spec?.secretName,
      issuer: item.spec?.issuerRef?.name,
      notAfter: item.status?.notAfter,
      reason: ready?.reason,
      text: `${name} (${ready ? `${ready.reason ?? ready.status}${ready.message ? `: ${ready.message}` : ''}` : 'no Ready condition yet'})`,
    };
  });
  const bad = rows.filter((r) => r.status !== 'ok');
  if (bad.length === 0) return { status: 'ok', message: `All ${rows.length} Certificates in ${PLATFORM_NAMESPACE} are Ready.`, details: { certificates: rows.map(({ text: _text, ...row }) => row) } };
  const causes = new Map(bad.map((r) => [r.name, issuance?.ok ? issuanceCause(items.find((i) => i.metadata?.name === r.name)!, issuance.objects) : undefined]));
  const described = bad.map((r) => {
    const cause = causes.get(r.name);
    return cause ? `${r.text}: ${cause.object}: ${cause.summary}` : r.text;
  });
  const details = {
    certificates: rows.map(({ text: _text, ...row }) => {
      const cause = causes.get(row.name);
      return cause ? { ...row, cause: { kind: cause.kind, object: cause.object, summary: cause.summary, dnsName: cause.dnsName, retryAfter: cause.retryAfter } } : row;
    }),
    ...(!issuance || issuance.ok ? {} : { issuanceError: issuance.error }),
  };
  const failed = bad.some((r) => r.status === 'fail');
  const advice = [...new Set([...causes.values()].filter((c) => c !== undefined).map((c) => c.advice))];
  if (bad.some((r) => r.reason === 'IncorrectIssuer')) advice.unshift('A secret still carries the previous issuer: run "cloudgate regenerate" to delete it so the current issuer issues it.');
  return {
    status: failed ? 'fail' : 'warn',
    message: `${bad.length} of ${rows.length} Certificates in ${PLATFORM_NAMESPACE} are not Ready: ${described.join('; ')}.`,
    advice: advice.length
      ? advice.join(' ')
      : 'Look at "cmctl status certificate -n openstack NAME" (or kubectl describe the Certificate and its CertificateRequest/Order); "cloudgate doctor --only kube,acme" checks the issuer.',
    details,
  };
}

/** The requests, orders and challenges of the platform namespace, for the walk below a Certificate. */
async function issuanceObjects(kube: KubectlOptions): Promise<Issuance> {
  const got = await kubectlGet(['get', 'certificaterequests.cert-manager.io,orders.acme.cert-manager.io,challenges.acme.cert-manager.io', '--namespace', PLATFORM_NAMESPACE], kube);
  if (!got.ok) return { ok: false, error: `Cannot read the CertificateRequests, Orders and Challenges in ${PLATFORM_NAMESPACE}: ${got.error}` };
  const items = ((got.value as { items?: CmObject[] }).items ?? []);
  return {
    ok: true,
    objects: {
      requests: items.filter((i) => i.kind === 'CertificateRequest'),
      orders: items.filter((i) => i.kind === 'Order'),
      challenges: items.filter((i) => i.kind === 'Challenge'),
    },
  };
}

async function wildcardSecretCheck(kube: KubectlOptions, name: string, domain: string | undefined): Promise<CheckResult> {
  const where = `${PLATFORM_NAMESPACE}/${name}`;
  // Not `secretOutput`: that would register every line of the JSON; the key is registered below, as stored and decoded.
  const got = await kubectlGet(['get', 'secret', `--namespace=${PLATFORM_NAMESPACE}`, '--', name], kube);
  if (!got.ok) {
    return {
      status: 'fail',
      message: got.notFound ? `The secret ${where} (cloud_helm_ingress_secret_name) does not exist.` : `Cannot read the secret ${where}: ${got.error}`,
      advice: got.notFound ? 'Create it from the manifest "cloudgate setup" wrote (kubectl apply -f <name>.secret.yaml), in every namespace whose ingress uses it.' : 'Check your access to secrets in this namespace.',
    };
  }
  const secret = got.value as { type?: string; data?: Record<string, string> };
  const decode = (key: string) => (secret.data?.[key] ? Buffer.from(secret.data[key], 'base64').toString('utf8') : undefined);
  registerSecret(secret.data?.['tls.key']);
  const keyPem = decode('tls.key');
  registerSecret(keyPem);
  const certPem = decode('tls.crt');
  if (secret.type !== 'kubernetes.io/tls') {
    return { status: 'fail', message: `The secret ${where} has type ${secret.type ?? '(none)'}, not kubernetes.io/tls.`, advice: 'Recreate it as a TLS secret: kubectl create secret tls NAME --cert=FILE --key=FILE -n openstack (or apply the manifest cloudgate setup wrote).' };
  }
  if (!certPem || !keyPem) {
    return { status: 'fail', message: `The secret ${where} lacks ${[certPem ? '' : 'tls.crt', keyPem ? '' : 'tls.key'].filter(Boolean).join(' and ')}.`, advice: 'A TLS secret needs both tls.crt (certificate, intermediate(s), root) and tls.key.' };
  }
  const result = examine({
    certPem,
    certSource: `${where} tls.crt`,
    keyPem,
    keySource: `${where} tls.key`,
    role: 'wildcard',
    domain,
    now: new Date(),
    fixHint: 'Run "cloudgate setup --fix-order" with the certificate files and apply the new manifest.',
    renewAdvice: 'The platform never renews a supplied wildcard: renew it with your CA, run "cloudgate setup" again and apply the new manifest.',
  });
  const problems = result.checks.filter((c) => c.status === 'fail' || c.status === 'warn');
  const details = {
    secret: where,
    checks: Object.fromEntries(result.checks.map((c) => [c.name, `${c.status}: ${c.message}`])),
    // Each certificate's expiry, for the exporter's certificate metrics.
    chain: result.checks.find((c) => c.name === 'validity')?.details?.chain,
  };
  if (problems.length === 0) return { status: 'ok', message: `${where} is a TLS secret whose certificate passes every check (${result.checks.map((c) => c.name).join(', ')}).`, details };
  const worst = problems.find((c) => c.status === 'fail') ?? problems[0]!;
  return {
    status: worst.status === 'fail' ? 'fail' : 'warn',
    message: problems.map((c) => c.message).join(' '),
    advice: [...new Set(problems.map((c) => c.advice).filter(Boolean))].join(' '),
    details,
  };
}
