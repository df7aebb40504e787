/**
 * Broken clusters, as cert-manager v1.15 (and where said, v1.21) leaves them, in the Kubernetes API
 * emulation read by the real kubectl: no broken cluster passes, and each finding names cert-manager's
 * cause (its reason, the ACME CA's problem type, the solver's error) with that cause's fix, never another's.
 */
import { describe, expect, it } from 'vitest';
import { brokenStates } from '../../../../helpers/cert-manager-states.js';
import { useKubeCluster } from '../../../../helpers/kube-cluster.js';
import { causesOf, doctorOn } from '../../../../helpers/kube-states-run.js';

const kube = useKubeCluster();

interface Expectation {
  /** The check that says the root cause, and the status it says it with. */
  check: string;
  status?: 'fail' | 'warn';
  /** The cause it names (see causesOf). */
  cause?: string;
  message?: RegExp;
  advice?: RegExp;
  /** What neither its message nor its advice may say (another cause's words). */
  never?: RegExp;
  /** Checks that must stay ok: the root cause is said once. */
  ok?: string[];
}

const EXPECTED: Record<string, Expectation> = {
  'wildcard order with no challenge: no solver for a wildcard': {
    check: 'kube.certificates',
    cause: 'Solver',
    message: /no configured challenge solvers can be used/,
    advice: /wildcard.*DNS-01/,
    never: /nothing to do/i,
  },
  'a Certificate naming a namespaced Issuer that does not exist (the ClusterIssuer of that name does)': {
    check: 'kube.certificates',
    cause: 'IssuerNotFound',
    message: /names Issuer openstack\/atmosphere, which does not exist, but ClusterIssuer atmosphere does/,
    advice: /issuerRef\.kind must be ClusterIssuer/,
    never: /platform's ClusterIssuer atmosphere is missing/,
    ok: ['kube.issuer'],
  },
  'a webhook solver whose API group is not served': {
    check: 'kube.certificates',
    cause: 'webhook-api-not-served',
    advice: /cert-manager-webhook-godaddy/,
    never: /refused/,
  },
  'a CA issuer whose certificate is not a CA': {
    check: 'kube.issuer',
    cause: 'ErrInvalidKeyPair',
    message: /not a CA/,
    advice: /CA certificate/,
    never: /does not match|belong/,
  },
  'a revoked Venafi access token (1.15 says ErrorSetup)': {
    check: 'kube.issuer',
    cause: 'venafi-token-refused',
    advice: /cluster_issuer_venafi_access_token/,
    never: /Read the message/,
  },
  'a refused Venafi token (1.21 says AuthFailed)': {
    check: 'kube.issuer',
    cause: 'AuthFailed',
    advice: /cluster_issuer_venafi_access_token/,
  },
  'rate-limited while the served certificate expired': {
    check: 'kube.certificates',
    cause: 'acme:rateLimited',
    message:
      /^[^:]*: openstack\/glance-api: its certificate \(secret openstack\/glance-api-certs\) expired on .*rate limit/,
    advice: /Do not delete anything/,
    never: /port 80/,
  },
  'a CAA record forbidding the CA': {
    check: 'kube.certificates',
    cause: 'acme:caa',
    advice: /dig CAA nova-api\.cloud\.test/,
    never: /port 80/,
  },
  'a name the ACME CA rejects': {
    check: 'kube.certificates',
    cause: 'acme:rejectedIdentifier',
    advice: /public domains/,
    never: /port 80/,
  },
  'an expired certificate backing off after a challenge timeout': {
    check: 'kube.certificates',
    cause: 'acme:connection',
    message:
      /glance-api: its certificate \(secret openstack\/glance-api-certs\) expired on [^;]+; Challenge .*tries again at/,
    advice: /port 80/,
  },
  'a supplied wildcard whose chain is reversed': {
    check: 'kube.wildcard-secret',
    message: /not in order/,
    never: /does not cover|does not belong/,
    ok: ['kube.ingress-secrets'],
  },
  'a namespaced CA issuer of openstack whose CA Secret is missing': {
    check: 'kube.issuers',
    cause: 'ca-secret-missing',
    message: /Issuer openstack\/octavia-client/,
    advice: /cloudgate status certificate openstack\/octavia-client-ca/,
    ok: ['kube.issuer'],
  },
  'a self-signed platform whose CA was never issued': {
    check: 'kube.issuer',
    cause: 'ca-secret-missing',
    advice: /cloudgate status certificate cert-manager\/self-signed-ca/,
  },
  'an ACME CA that requires External Account Binding': {
    check: 'kube.issuer',
    cause: 'acme:externalAccountRequired',
    advice: /External Account Binding/,
  },
  "a CA issuer whose key is not its certificate's": {
    check: 'kube.certificates',
    cause: 'ca-key-mismatch',
    advice: /cluster_issuer_ca_private_key/,
  },
  'a request denied by a policy': {
    check: 'kube.certificates',
    cause: 'denied',
    message: /No policy approved this request/,
  },
  'a request no approver answers': { check: 'kube.certificates', cause: 'not-approved', advice: /approver/ },
  "cert-manager's webhook Service missing": {
    check: 'kube.webhook',
    cause: 'WebhookServiceMissing',
    advice: /Helm chart/,
  },
  "cert-manager's webhook CA bundle not injected": {
    check: 'kube.webhook',
    cause: 'WebhookCAMissing',
    advice: /cainjector/,
  },
  'an HTTP-01 self-check answered 404 for two hours': {
    check: 'kube.certificates',
    cause: 'http-self-check-status',
    advice: /ingress class atmosphere/,
  },
  'route53 refusing the record': {
    check: 'kube.certificates',
    cause: 'dns-credentials-refused',
    advice: /credentials/,
  },
  'an issuer reason cert-manager does not set': {
    check: 'kube.issuer',
    cause: 'unknown',
    message: /PolicyViolation.*not one cert-manager/,
    never: /cluster_issuer_acme_email/,
  },
  'a route53 Secret missing (1.21 says InvalidSolver)': {
    check: 'kube.issuer',
    cause: 'InvalidSolver',
    advice: /cert-manager-issuer-route53-credentials/,
  },
  "the platform's ClusterIssuer not deployed": {
    check: 'kube.certificates',
    cause: 'IssuerNotFound',
    message: /openstack\/keystone-api, openstack\/nova-api: its issuer ClusterIssuer atmosphere does not exist/,
  },
  'two Certificates fighting over one secret': {
    check: 'kube.certificates',
    cause: 'IncorrectCertificate',
    advice: /its own secretName/,
  },
  'a secret whose certificate expired while its Certificate says Ready': {
    check: 'kube.certificates',
    cause: 'expired',
    advice: /cloudgate renew openstack\/glance-api/,
  },
};

describe('broken clusters', () => {
  it('every broken state has its expectation, and there are at least 31 states in all with the others', () => {
    expect(
      brokenStates()
        .map((s) => s.name)
        .sort(),
    ).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(brokenStates().map((s) => [s.name, s] as const))('%s', async (name, state) => {
    const want = EXPECTED[name]!;
    const r = await doctorOn(kube, state);
    const result = r[want.check]!;
    expect([want.check, result.status]).toEqual([want.check, want.status ?? 'fail']);
    if (want.cause) expect(causesOf(r)[want.check]).toContain(want.cause);
    if (want.message) expect(result.message).toMatch(want.message);
    if (want.advice) expect(result.advice).toMatch(want.advice);
    if (want.never) expect(`${result.message} ${result.advice ?? ''}`).not.toMatch(want.never);
    for (const id of want.ok ?? []) expect([id, r[id]!.status]).toEqual([id, 'ok']);
  });
});
