/**
 * `cloudgate doctor --only kube` through the built binary against the Kubernetes API emulation driven
 * by the real kubectl: who owns the ingresses' certificate secrets (kube.ingress-secrets) and why a
 * Certificate is not Ready (kube.certificates walking CertificateRequest → Order → Challenge).
 * Run `npm run build` first.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  startKubeApi,
  type KubeApi,
  type KubeObject,
} from '../servers/kube-api.js';
import { createPki, type Pki } from '../servers/tls-endpoints.js';
import { hasKubectl, needsKubectl } from '../helpers/has-kubectl.js';
import { certManagerWorkloads } from '../helpers/cert-manager-objects.js';
import { renderPlatform } from '../../src/core/render/objects.js';

interface Check {
  id: string;
  status: string;
  message: string;
  advice?: string;
  details?: Record<string, unknown>;
  stuck?: { step: string; object: string; reason: string };
}

const CONTEXT = 'lab';
const dir = mkdtempSync(join(tmpdir(), 'cg-ingress-certs-e2e-'));
let inventories = 0;
function inventory(lines: string[]): string {
  const path = join(dir, `certificates-${++inventories}.yml`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
const acme = () => inventory(['cluster_issuer_type: acme', 'cluster_issuer_acme_email: ops@example.com']);
const supplied = () =>
  inventory([
    'cluster_issuer_type: none',
    'openstack_helm_ingress_secret_name: wildcard-certs',
    'openstack_helm_ingress_wildcard_domain: cloud.example.test',
  ]);

const ISSUED = { 'cert-manager.io/cluster-issuer': 'atmosphere' };
const ready = (status: string, reason: string, message = '') => ({
  conditions: [{ type: 'Ready', status, reason, message }],
});

function ingress(
  ns: string,
  name: string,
  hosts: string[],
  secretName: string,
  options: { annotations?: Record<string, string>; ruleHosts?: string[] } = {},
): KubeObject {
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name, namespace: ns, ...(options.annotations ? { annotations: options.annotations } : {}) },
    spec: {
      ingressClassName: 'atmosphere',
      tls: [{ hosts, secretName }],
      rules: (options.ruleHosts ?? hosts).map((host) => ({
        host,
        http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: 80 } } } }] },
      })),
    },
  };
}

const certificate = (
  name: string,
  status: Record<string, unknown>,
  hosts = [`${name}.cloud.example.test`],
): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name, namespace: 'openstack', uid: `uid-certificate-${name}` },
  spec: {
    secretName: `${name}-certs`,
    dnsNames: hosts,
    issuerRef: { name: 'atmosphere', kind: 'ClusterIssuer', group: 'cert-manager.io' },
  },
  status,
});

const owner = (o: KubeObject) => [
  {
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name,
    uid: o.metadata.uid!,
    controller: true,
    blockOwnerDeletion: true,
  },
];

function request(cert: KubeObject, status: Record<string, unknown>): KubeObject {
  const name = `${cert.metadata.name}-1`;
  return {
    apiVersion: 'cert-manager.io/v1',
    kind: 'CertificateRequest',
    metadata: {
      name,
      namespace: 'openstack',
      uid: `uid-request-${name}`,
      ownerReferences: owner(cert),
      annotations: {
        'cert-manager.io/certificate-name': cert.metadata.name,
        'cert-manager.io/certificate-revision': '1',
        'cert-manager.io/private-key-secret-name': `${cert.metadata.name}-abcde`,
      },
    },
    spec: {
      request: 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K',
      issuerRef: { name: 'atmosphere', kind: 'ClusterIssuer', group: 'cert-manager.io' },
    },
    status,
  };
}

function order(req: KubeObject, status: Record<string, unknown>): KubeObject {
  const name = `${req.metadata.name}-1234567890`;
  return {
    apiVersion: 'acme.cert-manager.io/v1',
    kind: 'Order',
    metadata: { name, namespace: 'openstack', uid: `uid-order-${name}`, ownerReferences: owner(req) },
    spec: {
      request: 'LS0t',
      issuerRef: { name: 'atmosphere', kind: 'ClusterIssuer', group: 'cert-manager.io' },
      dnsNames: ['compute.cloud.example.test'],
    },
    status,
  };
}

function challenge(ord: KubeObject, type: string, status: Record<string, unknown>): KubeObject {
  const name = `${ord.metadata.name}-987654321`;
  return {
    apiVersion: 'acme.cert-manager.io/v1',
    kind: 'Challenge',
    metadata: { name, namespace: 'openstack', uid: `uid-challenge-${name}`, ownerReferences: owner(ord) },
    spec: {
      type,
      dnsName: 'compute.cloud.example.test',
      key: 'challenge-key-authorization-digest',
      token: 'challenge-token-value',
      url: 'https://acme.example.test/chall/1',
      authorizationURL: 'https://acme.example.test/authz/1',
      solver: { dns01: { rfc2136: { nameserver: '192.0.2.53' } } },
    },
    status,
  };
}

// Each case runs the whole kube group (a dozen kubectl calls) on a shared machine.
describe.skipIf(!hasKubectl)(
  `cloudgate doctor --only kube: ingress secrets and certificate issuance${needsKubectl}`,
  { timeout: 120_000 },
  () => {
    let api: KubeApi;
    let pki: Pki;
    const keys: string[] = [];
    const outputs: CliResult[] = [];

    beforeAll(async () => {
      pki = createPki('ingress certs e2e');
      api = await startKubeApi(new KubeState(), { context: CONTEXT });
    });
    afterAll(() => api?.stop());

    /** A kubernetes.io/tls secret with a fresh key; the key is remembered for the output search. */
    function tlsSecret(ns: string, name: string, names: string[], type = 'kubernetes.io/tls'): KubeObject {
      const leaf = pki.leaf(names);
      keys.push(leaf.key);
      return {
        apiVersion: 'v1',
        kind: 'Secret',
        type,
        metadata: { name, namespace: ns },
        data: {
          'tls.crt': Buffer.from(leaf.cert + pki.intermediate.cert).toString('base64'),
          'tls.key': Buffer.from(leaf.key).toString('base64'),
        },
      };
    }

    const cluster = (...objects: KubeObject[]) => {
      api.state.objects = [];
      api.state.requests = [];
      api.state.add(
        ...certManagerCrds(),
        ...certManagerWorkloads(),
        ...['openstack', 'auth-system', 'monitoring'].map(namespace),
        ...objects,
      );
    };

    async function doctor(
      inv: string,
      extra: string[] = ['--json'],
    ): Promise<{ r: CliResult; byId: Record<string, Check> }> {
      // A generous --timeout: kubectl is slow on a loaded machine, and a timeout is not what is tested here.
      const r = await runCli(
        ['doctor', '--only', 'kube', '--inventory', inv, '--context', CONTEXT, '--timeout', '30', ...extra],
        { env: api.env, timeoutMs: 110_000 },
      );
      outputs.push(r);
      const byId = extra.includes('--json')
        ? Object.fromEntries((JSON.parse(r.stdout) as { checks: Check[] }).checks.map((c) => [c.id, c]))
        : {};
      return { r, byId };
    }

    /** The platform of an acme inventory, healthy: issuer as rendered, certificates Ready, four ingresses with their secrets. */
    const healthy = () => {
      const deployedSpec = renderPlatform({
        cluster_issuer_type: 'acme',
        cluster_issuer_acme_email: 'ops@example.com',
      }).objects.at(-1)!.object.spec as Record<string, unknown>;
      return [
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'ClusterIssuer',
          metadata: { name: 'atmosphere' },
          spec: deployedSpec,
          status: ready('True', 'ACMEAccountRegistered'),
        },
        certificate('keystone-api', ready('True', 'Ready', 'Certificate is up to date and has not expired'), [
          'identity.cloud.example.test',
        ]),
        certificate('nova-api', ready('True', 'Ready', 'Certificate is up to date and has not expired'), [
          'compute.cloud.example.test',
        ]),
        ingress('openstack', 'keystone', ['identity.cloud.example.test'], 'keystone-api-certs', {
          annotations: ISSUED,
        }),
        tlsSecret('openstack', 'keystone-api-certs', ['identity.cloud.example.test']),
        ingress('openstack', 'nova', ['compute.cloud.example.test'], 'nova-api-certs', { annotations: ISSUED }),
        tlsSecret('openstack', 'nova-api-certs', ['compute.cloud.example.test']),
        ingress('auth-system', 'keycloak', ['keycloak.cloud.example.test'], 'keycloak.cloud.example.test-tls', {
          annotations: ISSUED,
        }),
        tlsSecret('auth-system', 'keycloak.cloud.example.test-tls', ['keycloak.cloud.example.test']),
        ingress('monitoring', 'grafana', ['grafana.cloud.example.test'], 'grafana-tls', { annotations: ISSUED }),
        tlsSecret('monitoring', 'grafana-tls', ['grafana.cloud.example.test']),
      ] as KubeObject[];
    };

    it('passes a healthy cluster: every kube check ok or skipped, exit 0', async () => {
      cluster(...healthy());
      const { r, byId } = await doctor(acme());
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(byId['kube.ingress-secrets']).toMatchObject({ status: 'ok', details: { ingresses: 4, findings: [] } });
      expect(byId['kube.certificates']).toMatchObject({
        status: 'ok',
        message: expect.stringMatching(
          /^All 2 Certificates in openstack, auth-system, monitoring, cert-manager are Ready/,
        ),
      });
      // The TLS secrets are read in one list for the whole run (only TLS secrets, not Helm's or tokens), not one call per secret.
      const secretReads = api.state.requests.filter((q) => q.path.includes('/secrets'));
      expect(secretReads.map((q) => [q.path, q.query.fieldSelector])).toEqual([
        ['/api/v1/secrets', 'type=kubernetes.io/tls'],
      ]);
    });

    describe('kube.ingress-secrets', () => {
      const findings = (check: Check) => {
        expect(check.details?.findings, check.message).toBeDefined();
        return (check.details!.findings as { ingress: string; kind: string; status: string }[]).map((f) => [
          f.ingress,
          f.kind,
          f.status,
        ]);
      };

      it('fails an ingress whose TLS secret does not exist in its namespace, naming the ingress and the fix', async () => {
        cluster(ingress('openstack', 'nova', ['compute.cloud.example.test'], 'nova-api-certs'));
        const { r, byId } = await doctor(acme());
        expect(r.code).toBe(1);
        const check = byId['kube.ingress-secrets'];
        expect(check.status).toBe('fail');
        expect(findings(check)).toEqual([['openstack/nova', 'secret-missing', 'fail']]);
        expect(check.message).toContain('openstack/nova: its TLS secret openstack/nova-api-certs does not exist');
      });

      it('leaves a supplied wildcard copy missing in its namespace to kube.wildcard-secret, said once', async () => {
        // The supplied wildcard exists in openstack only; grafana in monitoring uses the same name.
        cluster(
          ingress('openstack', 'nova', ['compute.cloud.example.test'], 'wildcard-certs'),
          tlsSecret('openstack', 'wildcard-certs', ['*.cloud.example.test']),
          ingress('monitoring', 'grafana', ['grafana.cloud.example.test'], 'wildcard-certs'),
        );
        const { r, byId } = await doctor(supplied());
        expect(r.code).toBe(1);
        expect(byId['kube.ingress-secrets'].status).toBe('ok');
        expect(byId['kube.wildcard-secret']).toMatchObject({
          status: 'fail',
          stuck: { step: 'secret', object: 'Secret monitoring/wildcard-certs' },
        });
        expect(byId['kube.wildcard-secret'].advice).toContain('kubectl create secret tls wildcard-certs -n NAMESPACE');
      });

      it('fails a secret that is not of type kubernetes.io/tls', async () => {
        cluster(
          ingress('openstack', 'nova', ['compute.cloud.example.test'], 'nova-api-certs'),
          tlsSecret('openstack', 'nova-api-certs', ['compute.cloud.example.test'], 'Opaque'),
        );
        const { r, byId } = await doctor(acme());
        expect(r.code).toBe(1);
        expect(findings(byId['kube.ingress-secrets'])).toEqual([['openstack/nova', 'wrong-type', 'fail']]);
        expect(byId['kube.ingress-secrets'].message).toContain('type Opaque, not kubernetes.io/tls');
      });

      it('fails a certificate that does not cover a host of the ingress (a wildcard covers one label)', async () => {
        cluster(
          ingress('openstack', 'placement', ['placement.api.cloud.example.test'], 'wildcard-certs'),
          tlsSecret('openstack', 'wildcard-certs', ['*.cloud.example.test']),
        );
        const { r, byId } = await doctor(supplied());
        expect(r.code).toBe(1);
        const check = byId['kube.ingress-secrets'];
        expect(findings(check)).toEqual([['openstack/placement', 'not-covered', 'fail']]);
        expect(check.message).toContain('names *.cloud.example.test');
        expect(check.message).toContain('does not cover placement.api.cloud.example.test');
      });

      it('fails an ingress that uses the supplied wildcard and carries the cluster-issuer annotation', async () => {
        cluster(
          ingress('openstack', 'keystone', ['identity.cloud.example.test'], 'wildcard-certs', { annotations: ISSUED }),
          tlsSecret('openstack', 'wildcard-certs', ['*.cloud.example.test']),
        );
        const { r, byId } = await doctor(supplied());
        expect(r.code).toBe(1);
        const check = byId['kube.ingress-secrets'];
        expect(findings(check)).toEqual([['openstack/keystone', 'issuer-on-supplied', 'fail']]);
        expect(check.message).toMatch(/cert-manager will replace the operator's certificate/);
        expect(check.advice).toContain(
          'kubectl annotate ingress keystone -n openstack cert-manager.io/cluster-issuer-',
        );
      });

      it('warns about a ClusterIssuer atmosphere left over while the inventory says issuer none', async () => {
        cluster(
          {
            apiVersion: 'cert-manager.io/v1',
            kind: 'ClusterIssuer',
            metadata: { name: 'atmosphere' },
            spec: { selfSigned: {} },
            status: ready('True', 'IsReady'),
          },
          ingress('openstack', 'nova', ['compute.cloud.example.test'], 'wildcard-certs'),
          tlsSecret('openstack', 'wildcard-certs', ['*.cloud.example.test']),
        );
        const { byId } = await doctor(supplied());
        const check = byId['kube.ingress-secrets'];
        expect(check.status).toBe('warn');
        expect(findings(check)).toEqual([['ClusterIssuer atmosphere', 'leftover-issuer', 'warn']]);
        expect(check.advice).toContain('kubectl delete clusterissuer atmosphere');
      });

      it('fails two ingresses claiming the same host with different secrets', async () => {
        cluster(
          ingress('openstack', 'nova', ['compute.cloud.example.test'], 'nova-api-certs'),
          tlsSecret('openstack', 'nova-api-certs', ['compute.cloud.example.test']),
          ingress('openstack', 'nova-old', ['compute.cloud.example.test'], 'nova-old-certs'),
          tlsSecret('openstack', 'nova-old-certs', ['compute.cloud.example.test']),
        );
        const { r, byId } = await doctor(acme());
        expect(r.code).toBe(1);
        const check = byId['kube.ingress-secrets'];
        expect(findings(check)).toEqual([['openstack/nova, openstack/nova-old', 'duplicate-host', 'fail']]);
        expect(check.message).toContain('2 ingresses claim the host compute.cloud.example.test');
      });

      it('fails tls hosts that do not match the hosts of the rules', async () => {
        cluster(
          ingress('openstack', 'horizon', ['dashboard.cloud.example.test'], 'horizon-certs', {
            ruleHosts: ['horizon.cloud.example.test'],
          }),
          tlsSecret('openstack', 'horizon-certs', ['dashboard.cloud.example.test']),
        );
        const { r, byId } = await doctor(acme());
        expect(r.code).toBe(1);
        const check = byId['kube.ingress-secrets'];
        expect(findings(check)).toEqual([
          ['openstack/horizon', 'rule-host-without-tls', 'fail'],
          ['openstack/horizon', 'tls-host-without-rule', 'warn'],
        ]);
        expect(check.message).toContain(
          'serves horizon.cloud.example.test (spec.rules) but no tls[].hosts entry names it',
        );
      });
    });

    describe('kube.certificates: the deepest reason of a Certificate that is not Ready', () => {
      const notReady = ready('False', 'DoesNotExist', 'Issuing certificate as Secret does not exist');
      const pendingRequest = ready(
        'False',
        'Pending',
        'Waiting on certificate issuance from order openstack/nova-api-1-1234567890: "pending"',
      );
      const keystone = () => [
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'ClusterIssuer',
          metadata: { name: 'atmosphere' },
          spec: { selfSigned: {} },
          status: ready('True', 'IsReady'),
        },
        certificate('keystone-api', ready('True', 'Ready'), ['identity.cloud.example.test']),
        tlsSecret('openstack', 'keystone-api-certs', ['identity.cloud.example.test']),
      ];

      it('reports a DNS-01 challenge waiting for propagation, naming the challenge and the record', async () => {
        const cert = certificate('nova-api', notReady);
        const req = request(cert, pendingRequest);
        const ord = order(req, { state: 'pending', url: 'https://acme.example.test/order/1' });
        const why =
          'Waiting for DNS-01 challenge propagation: DNS record for "compute.cloud.example.test" not yet propagated';
        cluster(
          ...keystone(),
          cert,
          req,
          ord,
          challenge(ord, 'DNS-01', { presented: true, processing: true, state: 'pending', reason: why }),
        );
        const { r, byId } = await doctor(acme());
        expect(r.code).toBe(1);
        const check = byId['kube.certificates'];
        expect(check.status).toBe('fail');
        expect(check.message).toContain(
          '1 of 2 Certificates in openstack, auth-system, monitoring, cert-manager are not Ready or not current: openstack/nova-api: Challenge openstack/nova-api-1-1234567890-987654321: cert-manager wrote the TXT record _acme-challenge.compute.cloud.example.test',
        );
        expect(check.message).toContain(why);
        expect(check.stuck).toEqual({
          step: 'challenge',
          object: 'Challenge openstack/nova-api-1-1234567890-987654321',
          reason: 'Waiting for DNS-01 challenge propagation',
        });
        expect(check.advice).toContain('_acme-challenge.compute.cloud.example.test');
        expect(r.stdout).not.toMatch(/challenge-key-authorization-digest|challenge-token-value/);
      });

      it('reports a rate-limited order with the retry time', async () => {
        const cert = certificate('nova-api', notReady);
        const req = request(cert, pendingRequest);
        const limited =
          'Failed to create Order: 429 urn:ietf:params:acme:error:rateLimited: Error creating new order :: too many certificates (5) already issued for this exact set of identifiers in the last 168h0m0s, retry after 2031-01-20 22:00:44 UTC: see https://letsencrypt.org/docs/rate-limits/';
        cluster(...keystone(), cert, req, order(req, { state: 'errored', reason: limited }));
        const { r, byId } = await doctor(acme());
        expect(r.code).toBe(1);
        const check = byId['kube.certificates'];
        expect(check.stuck).toEqual({
          step: 'order',
          object: 'Order openstack/nova-api-1-1234567890',
          reason: 'rateLimited',
        });
        expect(check.message).toContain('urn:ietf:params:acme:error:rateLimited');
        expect(check.advice).toContain('until 2031-01-20T22:00:44.000Z');
      });

      it('reports an invalid authorization with the failure detail', async () => {
        const cert = certificate('nova-api', notReady);
        const req = request(
          cert,
          ready(
            'False',
            'Failed',
            'Failed to wait for order resource "nova-api-1-1234567890" to become ready: order is in "invalid" state: ',
          ),
        );
        const detail =
          'Error accepting authorization: acme: authorization error for compute.cloud.example.test: 403 urn:ietf:params:acme:error:unauthorized: Incorrect TXT record "abc" found at _acme-challenge.compute.cloud.example.test';
        const ord = order(req, { state: 'invalid', failureTime: '2025-01-01T00:00:00Z' });
        cluster(
          ...keystone(),
          cert,
          req,
          ord,
          challenge(ord, 'DNS-01', { presented: true, processing: false, state: 'invalid', reason: detail }),
        );
        const { r, byId } = await doctor(acme());
        expect(r.code).toBe(1);
        const check = byId['kube.certificates'];
        expect(check.stuck).toMatchObject({
          step: 'challenge',
          object: 'Challenge openstack/nova-api-1-1234567890-987654321',
        });
        expect(check.message).toContain(
          'the ACME CA refused the authorization: it did not find the proof it expected for compute.cloud.example.test',
        );
        expect(check.message).toContain('urn:ietf:params:acme:error:unauthorized');
      });

      it('reports a denied CertificateRequest', async () => {
        const cert = certificate('nova-api', notReady);
        const req = request(cert, {
          conditions: [
            { type: 'Approved', status: 'False' },
            {
              type: 'Denied',
              status: 'True',
              reason: 'policy.cert-manager.io',
              message: 'No policy approved this request: [atmosphere: spec.allowed.dnsNames.values: Invalid value]',
            },
            {
              type: 'Ready',
              status: 'False',
              reason: 'Denied',
              message: 'The CertificateRequest was denied by an approval controller',
            },
          ],
        });
        cluster(...keystone(), cert, req);
        const { r, byId } = await doctor(acme(), ['--json']);
        expect(r.code).toBe(1);
        const check = byId['kube.certificates'];
        expect(check.stuck).toEqual({
          step: 'approval',
          object: 'CertificateRequest openstack/nova-api-1',
          reason: 'policy.cert-manager.io',
        });
        expect(check.message).toContain('No policy approved this request');
        expect(check.advice).toMatch(/approver/);

        // The text report says the same, and --verbose prints the kubectl commands: still no key anywhere.
        const text = await doctor(acme(), ['--verbose']);
        expect(text.r.code).toBe(1);
        expect(text.r.stdout).toContain('No policy approved this request');
      });
    });

    it('printed no key material in any run (stdout and stderr, JSON and text)', () => {
      expect(outputs.length).toBeGreaterThanOrEqual(12);
      expect(keys.length).toBeGreaterThan(0);
      const printed = outputs.map((r) => r.stdout + r.stderr).join('\n');
      expect(printed).not.toMatch(/PRIVATE KEY/);
      for (const key of keys) {
        for (const line of key.split('\n').filter((l) => l && !l.startsWith('-----')))
          expect(printed).not.toContain(line);
        const stored = Buffer.from(key).toString('base64');
        for (const at of [0, stored.length >> 1]) expect(printed).not.toContain(stored.slice(at, at + 64));
      }
    });
  },
);
