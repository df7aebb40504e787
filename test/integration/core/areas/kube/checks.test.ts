/**
 * The kube group on the states operators hit, each built in the Kubernetes API test server and read by
 * the real kubectl: which check says what, with the stuck step, the object and cert-manager's reason.
 */
import { describe, expect, it } from 'vitest';
import { provideChecks } from '../../../../../src/core/areas/kube/checks.js';
import { run, writeTemp } from '../../../../helpers/doctor-run.js';
import { kubeDoctorInput, useKubeCluster } from '../../../../helpers/kube-cluster.js';
import {
  certificate,
  certificateRequest,
  certManagerCluster,
  certManagerWorkloads,
  challenge,
  clusterIssuer,
  condition,
  event,
  HOUR,
  ingress,
  issuedCertificate,
  leafFor,
  order,
  tlsSecret,
} from '../../../../helpers/cert-manager-objects.js';
import { certManagerCrds, KubeState, namespace, type KubeObject } from '../../../../servers/kube-api.js';

const kube = useKubeCluster();
const ACME =
  'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@cloud.test\ncluster_issuer_acme_server: https://acme.test/directory\n';
const doctor = async (objects: KubeObject[], inventory = ACME) => {
  await kube.start(new KubeState().add(...objects));
  return run(provideChecks, kubeDoctorInput({}, { inventory: writeTemp('certificates.yml', inventory) }));
};
const healthyPlatform = () => [
  ...certManagerCluster(),
  clusterIssuer('atmosphere'),
  ...issuedCertificate('keystone-api'),
  ingress('keystone', 'openstack', 'keystone-api.cloud.test', 'keystone-api-certs'),
];
const failedNova = (conditions: ReturnType<typeof condition>[], status: Record<string, unknown> = {}) =>
  certificate('nova-api', {
    conditions: [
      condition('Ready', 'False', 'DoesNotExist', 'Issuing certificate as Secret does not exist', 1),
      condition('Issuing', 'True', 'DoesNotExist', '', 1),
      ...conditions,
    ],
    status: { revision: undefined, ...status },
  });

describe('kube checks on a healthy cluster', () => {
  it('are all ok with a non-default issuer name and ingress class from the inventory', async () => {
    const issuer = clusterIssuer('letsencrypt-prod', {
      acme: {
        email: 'ops@cloud.test',
        server: 'https://acme.test/directory',
        privateKeySecretRef: { name: 'cert-manager-issuer-account-key' },
        solvers: [{ http01: { ingress: { class: 'public-nginx' } } }],
      },
    });
    const r = await doctor(
      [
        ...certManagerCluster('billing'),
        issuer,
        ...issuedCertificate('keystone-api', { issuer: 'letsencrypt-prod' }),
        ingress('keystone', 'openstack', 'keystone-api.cloud.test', 'keystone-api-certs', 'letsencrypt-prod'),
        ...issuedCertificate('billing', { issuer: 'letsencrypt-prod', namespace: 'billing' }),
        ingress('billing', 'billing', 'billing.cloud.test', 'billing-certs', 'letsencrypt-prod'),
      ],
      `${ACME}cluster_issuer_name: letsencrypt-prod\natmosphere_ingress_class_name: public-nginx\n`,
    );
    for (const id of [
      'kube.cert-manager',
      'kube.issuer',
      'kube.issuer-drift',
      'kube.certificates',
      'kube.ingress-secrets',
    ])
      expect([id, r[id]!.status, r[id]!.message]).toEqual([id, 'ok', expect.any(String)]);
    expect(r['kube.issuer']!.subject).toEqual({ kind: 'ClusterIssuer', name: 'letsencrypt-prod' });
    // The namespace an annotated ingress brings into scope, and the secrets' own certificates for the exporter.
    expect(r['kube.certificates']!.certificates!.map((c) => c.source).sort()).toEqual([
      'billing/billing-certs',
      'openstack/keystone-api-certs',
    ]);
    expect(r['kube.wildcard-secret']!.reason).toMatchObject({ code: 'not-applicable' });
  });

  it('is ok while a renewal is in progress', async () => {
    const [cert, secret] = issuedCertificate('nova-api');
    (cert!.status as { conditions: unknown[] }).conditions.push(
      condition('Issuing', 'True', 'Renewing', 'Renewing certificate as renewal was scheduled', 1),
    );
    const req = certificateRequest(cert!, 2, [
      condition('Approved', 'True', 'cert-manager.io'),
      condition('Ready', 'False', 'Pending', 'Waiting on certificate issuance from order'),
    ]);
    const ord = order(req, { state: 'pending' });
    const r = await doctor([
      ...healthyPlatform(),
      cert!,
      secret!,
      req,
      ord,
      challenge(ord, 'HTTP-01', 'nova-api.cloud.test', {
        presented: true,
        processing: true,
        state: 'pending',
        reason: '',
      }),
    ]);
    expect(r['kube.certificates']).toMatchObject({ status: 'ok' });
    expect(r['kube.certificates']!.message).toMatch(/renewing openstack\/nova-api/);
  });

  it('checks a supplied wildcard (issuer none) in every namespace that uses it', async () => {
    const wildcard = leafFor(['*.cloud.test']);
    const r = await doctor(
      [
        ...certManagerCluster(),
        ...['openstack', 'auth-system', 'monitoring'].map((ns) => tlsSecret('wildcard-certs', ns, wildcard)),
        ingress('keystone', 'openstack', 'keystone.cloud.test', 'wildcard-certs', null),
        ingress('keycloak', 'auth-system', 'sso.cloud.test', 'wildcard-certs', null),
        ingress('grafana', 'monitoring', 'grafana.cloud.test', 'wildcard-certs', null),
      ],
      'cluster_issuer_type: none\nopenstack_helm_ingress_wildcard_domain: cloud.test\nopenstack_helm_ingress_secret_name: wildcard-certs\n',
    );
    expect(r['kube.wildcard-secret']).toMatchObject({ status: 'ok' });
    expect(r['kube.wildcard-secret']!.certificates!.map((c) => c.source)).toEqual([
      'openstack/wildcard-certs',
      'auth-system/wildcard-certs',
      'monitoring/wildcard-certs',
    ]);
    for (const id of ['kube.certificates', 'kube.ingress-secrets', 'kube.issuer-drift'])
      expect([id, r[id]!.status]).toEqual([id, 'ok']);
    expect(r['kube.issuer']!.reason).toMatchObject({ code: 'not-applicable' });
  });
});

describe("cert-manager's own health", () => {
  it.each<[string, KubeObject[], RegExp]>([
    [
      'the controller down',
      certManagerWorkloads({ down: ['controller'] }),
      /cert-manager is not available .*no Certificate is issued/,
    ],
    ['the webhook without a ready endpoint', certManagerWorkloads({ webhookEndpoints: false }), /no ready endpoint/],
    [
      'no cainjector',
      certManagerWorkloads().filter((o) => o.metadata.name !== 'cert-manager-cainjector'),
      /no cainjector Deployment/,
    ],
  ])('fails with %s', async (_, workloads, message) => {
    const r = await doctor([...certManagerCrds(), ...workloads, namespace('openstack'), clusterIssuer('atmosphere')]);
    expect(r['kube.cert-manager']).toMatchObject({ status: 'fail', message: expect.stringMatching(message) });
    expect(r['kube.cert-manager']!.facts).toMatchObject({ versions: ['v1.15.5'] });
  });
});

describe('the walk below a Certificate names the stuck step, the object and the reason', () => {
  it('a request waiting for approval (not "the issuer has not answered")', async () => {
    const nova = failedNova([]);
    const r = await doctor([
      ...healthyPlatform(),
      nova,
      certificateRequest(nova, 1, [condition('Ready', 'False', 'Pending', 'Waiting for approval')]),
    ]);
    expect(r['kube.certificates']).toMatchObject({
      status: 'fail',
      stuck: { step: 'approval', object: 'CertificateRequest openstack/nova-api-1', reason: 'NotApproved' },
    });
    expect(r['kube.certificates']!.advice).toMatch(/CertificateRequestPolicy|cmctl approve/);
  });

  it('a denied request', async () => {
    const nova = failedNova([]);
    const r = await doctor([
      ...healthyPlatform(),
      nova,
      certificateRequest(nova, 1, [
        condition('Denied', 'True', 'policy.cert-manager.io', 'No policy approved this request'),
        condition('Ready', 'False', 'Denied', ''),
      ]),
    ]);
    expect(r['kube.certificates']!.stuck).toEqual({
      step: 'approval',
      object: 'CertificateRequest openstack/nova-api-1',
      reason: 'policy.cert-manager.io',
    });
  });

  it('an issuer that does not exist (not "check kube.issuer")', async () => {
    const r = await doctor([
      ...healthyPlatform(),
      failedNova([]),
      { ...certificate('glance-api', { issuer: 'letsencrypt' }) },
    ]);
    expect(r['kube.certificates']).toMatchObject({
      status: 'fail',
      stuck: { step: 'issuer', object: 'ClusterIssuer letsencrypt', reason: 'NotFound' },
    });
    expect(r['kube.certificates']!.advice).toMatch(/annotation/);
  });

  it('an ACME CA that needs External Account Binding', async () => {
    const nova = failedNova([]);
    const req = certificateRequest(nova, 1, [
      condition('Approved', 'True', 'cert-manager.io'),
      condition('Ready', 'False', 'Failed', 'order failed'),
    ]);
    const r = await doctor([
      ...healthyPlatform(),
      nova,
      req,
      order(req, {
        state: 'errored',
        reason: 'Failed to register ACME account: urn:ietf:params:acme:error:externalAccountRequired',
      }),
    ]);
    expect(r['kube.certificates']!.stuck).toMatchObject({ step: 'order', object: 'Order openstack/nova-api-1-1234' });
    expect(r['kube.certificates']!.advice).toMatch(/External Account Binding/);
  });

  it('an HTTP-01 self-check that gets 404 through the ingress, with the events of the challenge', async () => {
    const nova = failedNova([]);
    const req = certificateRequest(nova, 1, [
      condition('Approved', 'True', 'cert-manager.io'),
      condition('Ready', 'False', 'Pending', 'Waiting on order'),
    ]);
    const ord = order(req, { state: 'pending' });
    const ch = challenge(ord, 'HTTP-01', 'nova-api.cloud.test', {
      presented: true,
      processing: true,
      state: 'pending',
      reason: "Waiting for HTTP-01 challenge propagation: wrong status code '404', expected '200'",
    });
    const r = await doctor([
      ...healthyPlatform(),
      nova,
      req,
      ord,
      ch,
      event(ch, 'Presented', 'Presented challenge using HTTP-01 challenge mechanism', 'Normal'),
    ]);
    expect(r['kube.certificates']!.stuck).toEqual({
      step: 'challenge',
      object: 'Challenge openstack/nova-api-1-1234-5678',
      reason: 'self-check got HTTP 404',
    });
    expect(r['kube.certificates']!.advice).toMatch(/ingress class atmosphere/);
    expect(JSON.stringify(r['kube.certificates']!.facts)).toContain('Presented challenge using HTTP-01');
  });

  it('a DNS provider that refuses the record', async () => {
    const nova = failedNova([]);
    const req = certificateRequest(nova, 1, [
      condition('Approved', 'True', 'cert-manager.io'),
      condition('Ready', 'False', 'Pending', ''),
    ]);
    const ord = order(req, { state: 'pending' });
    const r = await doctor([
      ...healthyPlatform(),
      nova,
      req,
      ord,
      challenge(ord, 'DNS-01', 'nova-api.cloud.test', {
        presented: false,
        processing: true,
        state: 'pending',
        reason:
          'failed to change Route 53 record set: operation error Route 53: ChangeResourceRecordSets, https response error StatusCode: 403, RequestID: 1, api error AccessDenied: User: arn:aws:iam::1:user/dns is not authorized to perform: route53:ChangeResourceRecordSets',
      }),
    ]);
    expect(r['kube.certificates']!.stuck).toMatchObject({
      step: 'challenge',
      reason: 'failed to change Route 53 record set',
    });
    expect(r['kube.certificates']!.message).toMatch(/the DNS provider refused cert-manager's credentials/);
    expect(r['kube.certificates']!.advice).toMatch(/credentials/);
  });
});

describe('renewal and real expiry', () => {
  it('a renewal that keeps failing: when cert-manager retries, from its failed attempts', async () => {
    const [cert, secret] = issuedCertificate('nova-api');
    const last = new Date(Date.now() - HOUR).toISOString().replace(/\.\d+Z$/, 'Z');
    Object.assign(cert!.status as object, {
      failedIssuanceAttempts: 3,
      lastFailureTime: last,
      renewalTime: new Date(Date.now() - 2 * HOUR).toISOString(),
    });
    (cert!.status as { conditions: unknown[] }).conditions.push(
      condition('Issuing', 'False', 'Failed', 'The certificate request has failed to complete and will be retried', 1),
    );
    const req = certificateRequest(cert!, 2, [
      condition('Approved', 'True', 'cert-manager.io'),
      condition('Ready', 'False', 'Failed', 'the issuer refused'),
    ]);
    const r = await doctor([...healthyPlatform(), cert!, secret!, req]);
    expect(r['kube.certificates']).toMatchObject({
      status: 'warn',
      stuck: { step: 'request', object: 'CertificateRequest openstack/nova-api-2', reason: 'Failed' },
    });
    const retry = new Date(Date.parse(last) + 4 * HOUR).toISOString();
    expect(r['kube.certificates']!.message).toContain(`tries again at ${retry}`);
  });

  it("a secret whose certificate expired while the Certificate says Ready, from the secret's own notAfter", async () => {
    const r = await doctor([...healthyPlatform(), ...issuedCertificate('nova-api', { days: -2 })]);
    expect(r['kube.certificates']).toMatchObject({
      status: 'fail',
      stuck: { step: 'secret', object: 'Secret openstack/nova-api-certs' },
    });
    const fact = r['kube.certificates']!.certificates!.find((c) => c.source === 'openstack/nova-api-certs')!;
    expect(Date.parse(fact.notAfter)).toBeLessThan(Date.now());
  });

  it('a stale Ready condition (of an older generation) is said so', async () => {
    const stale = certificate('nova-api', { generation: 3 });
    const r = await doctor([
      ...healthyPlatform(),
      stale,
      tlsSecret('nova-api-certs', 'openstack', leafFor(['nova-api.cloud.test'])),
    ]);
    expect(r['kube.certificates']).toMatchObject({
      status: 'warn',
      stuck: { step: 'controller', object: 'Certificate openstack/nova-api', reason: 'Stale' },
    });
  });

  it('a renewal time passed with nothing issuing', async () => {
    const [cert, secret] = issuedCertificate('nova-api');
    (cert!.status as Record<string, unknown>).renewalTime = new Date(Date.now() - 5 * HOUR).toISOString();
    const r = await doctor([...healthyPlatform(), cert!, secret!]);
    expect(r['kube.certificates']!.stuck).toMatchObject({ step: 'controller', reason: 'RenewalDue' });
  });

  it('a secret issued by another issuer while cert-manager re-issues it: re-issuing, never "delete the secret"', async () => {
    const [cert, secret] = issuedCertificate('nova-api');
    (cert!.status as { conditions: unknown[] }).conditions = [
      condition(
        'Ready',
        'False',
        'IncorrectIssuer',
        'Issuing certificate as Secret was previously issued by ClusterIssuer.cert-manager.io/old',
        1,
      ),
      condition('Issuing', 'True', 'IncorrectIssuer', '', 1),
    ];
    const r = await doctor([
      ...healthyPlatform(),
      cert!,
      secret!,
      ingress('nova', 'openstack', 'nova-api.cloud.test', 'nova-api-certs'),
    ]);
    expect(r['kube.certificates']!.status).toBe('warn');
    expect(r['kube.certificates']!.message).toMatch(
      /cert-manager is issuing it \(its secret was issued by another issuer\)/,
    );
    expect(`${r['kube.certificates']!.advice} ${r['kube.ingress-secrets']!.advice ?? ''}`).not.toMatch(
      /delete|regenerate/i,
    );
    expect(r['kube.ingress-secrets']!.status).toBe('ok');
  });
});

describe('scope: every namespace of the platform', () => {
  it('a failing identity-broker certificate in auth-system', async () => {
    const sso = certificate('sso', {
      namespace: 'auth-system',
      conditions: [condition('Ready', 'False', 'Failed', 'failed', 1)],
      status: { revision: undefined },
    });
    const r = await doctor([
      ...healthyPlatform(),
      sso,
      certificateRequest(sso, 1, [condition('Denied', 'True', 'PolicyDenied', 'no')]),
    ]);
    expect(r['kube.certificates']).toMatchObject({
      status: 'fail',
      stuck: { object: 'CertificateRequest auth-system/sso-1' },
    });
  });

  it.each<[string, (ns: string) => KubeObject]>([
    ['expired', (ns) => tlsSecret('wildcard-certs', ns, leafFor(['*.cloud.test'], -1))],
    [
      'with an empty tls.key',
      (ns) => ({
        ...tlsSecret('wildcard-certs', ns, leafFor(['*.cloud.test'])),
        data: { 'tls.crt': Buffer.from(leafFor(['*.cloud.test']).cert).toString('base64'), 'tls.key': '' },
      }),
    ],
    [
      'with a key that does not match',
      (ns) =>
        tlsSecret('wildcard-certs', ns, { cert: leafFor(['*.cloud.test']).cert, key: leafFor(['*.cloud.test']).key }),
    ],
  ])('a supplied wildcard copy %s', async (_, copy) => {
    const good = leafFor(['*.cloud.test']);
    const r = await doctor(
      [
        ...certManagerCluster(),
        tlsSecret('wildcard-certs', 'openstack', good),
        tlsSecret('wildcard-certs', 'auth-system', good),
        copy('monitoring'),
        ingress('keycloak', 'auth-system', 'sso.cloud.test', 'wildcard-certs', null),
        ingress('grafana', 'monitoring', 'grafana.cloud.test', 'wildcard-certs', null),
      ],
      'cluster_issuer_type: none\nopenstack_helm_ingress_wildcard_domain: cloud.test\nopenstack_helm_ingress_secret_name: wildcard-certs\n',
    );
    expect(r['kube.wildcard-secret']).toMatchObject({
      status: 'fail',
      stuck: { step: 'secret', object: 'Secret monitoring/wildcard-certs' },
    });
    // Said once: the ingress check leaves the supplied wildcard's content to kube.wildcard-secret.
    expect(r['kube.ingress-secrets']!.status).toBe('ok');
  });
});

describe('speed', () => {
  it('reads the cluster with the same requests for 60 Certificates in 12 namespaces as for 1: one list per kind, not one call per object', async () => {
    const objectReads = async (count: number) => {
      const objects = [...certManagerCluster(), clusterIssuer('atmosphere')];
      for (let i = 0; i < count; i++) {
        const ns = i < 3 ? ['openstack', 'auth-system', 'monitoring'][i]! : `tenant-${i % 9}`;
        if (i >= 3 && i < 12) objects.push(namespace(ns));
        objects.push(
          ...issuedCertificate(`svc-${i}`, { namespace: ns }),
          ingress(`svc-${i}`, ns, `svc-${i}.cloud.test`, `svc-${i}-certs`),
        );
      }
      const r = await doctor(objects);
      expect(r['kube.certificates']!.status).toBe('ok');
      const reads = kube
        .api!.state.requests.filter((q) => q.method === 'GET' && !/^\/(apis?|version)(\/[^/]+){0,2}$/.test(q.path))
        .map((q) => q.path)
        .sort();
      await kube.api!.stop();
      return reads;
    };
    const one = await objectReads(1);
    const sixty = await objectReads(60);
    expect(sixty).toEqual(one);
    expect(one.length).toBeLessThanOrEqual(10);
  });
});
