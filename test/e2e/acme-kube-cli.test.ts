/**
 * `cloudgate doctor --only acme` and `--only kube` (the cert-manager objects) through the built binary:
 * acme against local ACME directories over HTTPS (a good one, one without newOrder, a closed port, and
 * Debian's pebble when installed); kube against the Kubernetes API emulation driven by the real kubectl.
 * Run `npm run build` first.
 */
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestCA, type TestCA } from '../helpers/pki.js';
import { requirePebble, startLocalAcme, startPebble, type AcmeServer } from '../servers/acme.js';
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
  group: string;
  status: string;
  message: string;
  advice?: string;
  details?: Record<string, unknown>;
  reason?: { code: string; text: string };
}
interface Report {
  schema: string;
  summary: Record<string, number>;
  checks: Check[];
}

const dir = mkdtempSync(join(tmpdir(), 'cg-acme-kube-e2e-'));
let inventories = 0;
function inventory(lines: string[]): string {
  const path = join(dir, `certificates-${++inventories}.yml`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** The whole of stdout is one doctor JSON document (JSON.parse refuses anything around it). */
function report(r: CliResult): { report: Report; byId: Record<string, Check> } {
  const parsed = JSON.parse(r.stdout) as Report;
  expect(parsed.schema).toBe('cloudgate.doctor/v1');
  return { report: parsed, byId: Object.fromEntries(parsed.checks.map((c) => [c.id, c])) };
}

/** No part of a private key (its PEM armour, any base64 line, or the base64 a Secret stores) was printed. */
function expectNoKeyMaterial(r: CliResult, keys: string[]): void {
  const printed = r.stdout + r.stderr;
  expect(printed).not.toMatch(/PRIVATE KEY/);
  for (const key of keys) {
    for (const line of key.split('\n').filter((l) => l && !l.startsWith('-----'))) expect(printed).not.toContain(line);
    const stored = Buffer.from(key).toString('base64');
    for (const at of [0, stored.length >> 1]) expect(printed).not.toContain(stored.slice(at, at + 64));
  }
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('cloudgate doctor --only acme', () => {
  let ca: TestCA;
  let good: AcmeServer;
  let noOrder: AcmeServer;
  beforeAll(async () => {
    ca = createTestCA('acme e2e private ACME CA');
    good = await startLocalAcme(ca);
    noOrder = await startLocalAcme(ca, { omit: ['newOrder'] });
  });
  afterAll(async () => {
    await good?.stop();
    await noOrder?.stop();
  });

  const acmeInventory = (server: string) =>
    inventory([
      'cluster_issuer_type: acme',
      'cluster_issuer_acme_email: ops@example.com',
      `cluster_issuer_acme_server: ${server}`,
      'cluster_issuer_acme_private_ca: true',
    ]);
  const doctor = (inv: string, extra: string[] = ['--ca-file', ca.file]) =>
    runCli(['doctor', '--only', 'acme', '--json', '--inventory', inv, ...extra, '--timeout', '5']);

  it('passes a good ACME directory trusted through --ca-file: exit 0, JSON only on stdout', async () => {
    const r = await doctor(acmeInventory(good.url));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { report: doc, byId } = report(r);
    expect(doc.checks.map((c) => c.id).sort()).toEqual(['acme.directory', 'acme.dns-credentials', 'acme.rfc2136']);
    expect(byId['acme.directory']).toMatchObject({ group: 'acme', status: 'ok' });
    expect(byId['acme.directory'].message).toContain(good.url);
    expect(byId['acme.directory'].details).toMatchObject({
      url: good.url,
      newOrder: expect.stringMatching(/^https:\/\/localhost:\d+\/order$/),
    });
    expect(byId['acme.rfc2136']).toMatchObject({ status: 'skip', message: 'The ACME solver is http01, not rfc2136.' });
    expect(doc.summary).toMatchObject({ ok: 1, fail: 0, skip: 2 });
  });

  it('fails a directory without newOrder, naming it and the inventory variable to fix', async () => {
    const r = await doctor(acmeInventory(noOrder.url));
    expect(r.code).toBe(1);
    const { byId } = report(r);
    const check = byId['acme.directory'];
    expect(check.status).toBe('fail');
    expect(check.message).toContain(noOrder.url);
    expect(check.message).toMatch(/lacks newOrder \(cert-manager rejects a directory without newOrder\)/);
    expect(check.advice).toMatch(/cluster_issuer_acme_server/);
    expect(check.details).not.toHaveProperty('newOrder');
  });

  it('fails an unreachable ACME server, saying nothing listens there', async () => {
    const url = `https://localhost:${await closedPort()}/directory`;
    const r = await doctor(acmeInventory(url));
    expect(r.code).toBe(1);
    const { byId } = report(r);
    expect(byId['acme.directory']).toMatchObject({ status: 'fail', details: { url, kind: 'refused' } });
    expect(byId['acme.directory'].message).toMatch(/Connection refused/);
    expect(byId['acme.directory'].advice).toBeTruthy();
  });

  it('fails a private ACME CA not given with --ca-file, and the advice names --ca-file', async () => {
    const r = await doctor(acmeInventory(good.url), []);
    expect(r.code).toBe(1);
    const { byId } = report(r);
    expect(byId['acme.directory']).toMatchObject({ status: 'fail', details: { kind: 'tls-unknown-ca' } });
    expect(byId['acme.directory'].advice).toMatch(/--ca-file/);
  });

  it('skips both checks when the inventory chooses another issuer type', async () => {
    const r = await doctor(inventory(['cluster_issuer_type: self-signed']));
    expect(r.code).toBe(0);
    const { byId } = report(r);
    expect(byId['acme.directory']).toMatchObject({
      status: 'skip',
      message: 'cluster_issuer_type is self-signed, not acme.',
    });
    expect(byId['acme.rfc2136'].status).toBe('skip');
  });

  it.skipIf(!requirePebble())('passes the directory of a real ACME server (pebble)', async () => {
    const pebble = await startPebble(ca);
    try {
      const r = await doctor(acmeInventory(pebble.url));
      expect(r.code).toBe(0);
      const { byId } = report(r);
      expect(byId['acme.directory']).toMatchObject({ status: 'ok' });
      expect(byId['acme.directory'].message).toContain('Replay-Nonce issued');
    } finally {
      await pebble.stop();
    }
  });
});

const CONTEXT = 'lab';
const ready = (status: string, reason: string, message = '') => ({
  status: { conditions: [{ type: 'Ready', status, reason, message }] },
});
const clusterIssuer = (spec: Record<string, unknown>, condition: ReturnType<typeof ready>): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'ClusterIssuer',
  metadata: { name: 'atmosphere' },
  spec,
  ...condition,
});
const certificate = (name: string, condition: ReturnType<typeof ready>): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name, namespace: 'openstack' },
  spec: { secretName: `${name}-certs`, issuerRef: { name: 'atmosphere', kind: 'ClusterIssuer' } },
  ...condition,
});
const tlsSecret = (cert: string, key: string, type = 'kubernetes.io/tls'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type,
  metadata: { name: 'wildcard-certs', namespace: 'openstack' },
  data: { 'tls.crt': Buffer.from(cert).toString('base64'), 'tls.key': Buffer.from(key).toString('base64') },
});

describe.skipIf(!hasKubectl)(`cloudgate doctor --only kube (cert-manager objects) with kubectl${needsKubectl}`, () => {
  let api: KubeApi;
  let pki: Pki;
  beforeAll(async () => {
    pki = createPki('kube e2e wildcard');
    api = await startKubeApi(new KubeState(), { context: CONTEXT });
  });
  afterAll(() => api?.stop());
  /** Each test sets the cluster it needs; the server reads the state on every request. */
  const cluster = (...objects: KubeObject[]) => {
    api.state.objects = [];
    api.state.requests = [];
    api.state.add(...certManagerCrds(), ...certManagerWorkloads(), namespace('openstack'), ...objects);
  };
  beforeEach(() => cluster());
  /** The TLS secret cert-manager made for a Certificate of certificate() above. */
  const issuedSecret = (name: string) => {
    const leaf = pki.leaf([`${name}.cloud.example.test`], { kind: 'p256' });
    return { ...tlsSecret(leaf.cert, leaf.key), metadata: { name: `${name}-certs`, namespace: 'openstack' } };
  };

  const acme = () => inventory(['cluster_issuer_type: acme', 'cluster_issuer_acme_email: ops@example.com']);
  const wildcard = () =>
    inventory([
      'cluster_issuer_type: none',
      'openstack_helm_ingress_secret_name: wildcard-certs',
      'openstack_helm_ingress_wildcard_domain: cloud.example.test',
    ]);
  const doctor = (inv: string, extra: string[] = ['--json'], env: Record<string, string> = api.env) =>
    runCli(['doctor', '--only', 'kube', '--inventory', inv, '--context', CONTEXT, ...extra], { env });

  it('passes a Ready ClusterIssuer "atmosphere" and Ready certificates in openstack: exit 0, JSON only', async () => {
    // The issuer a deployment of this inventory leaves: kube.issuer-drift compares it too.
    const deployedSpec = renderPlatform({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
    }).objects.at(-1)!.object.spec as Record<string, unknown>;
    cluster(
      clusterIssuer(
        deployedSpec,
        ready('True', 'ACMEAccountRegistered', 'The ACME account was registered with the ACME server'),
      ),
      certificate('keystone-api', ready('True', 'Ready', 'Certificate is up to date and has not expired')),
      certificate('nova-api', ready('True', 'Ready', 'Certificate is up to date and has not expired')),
      issuedSecret('keystone-api'),
      issuedSecret('nova-api'),
    );
    const r = await doctor(acme());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const { byId } = report(r);
    expect(byId['kube.issuer']).toMatchObject({
      group: 'kube',
      status: 'ok',
      details: { type: 'acme', ready: 'True', reason: 'ACMEAccountRegistered' },
    });
    expect(byId['kube.certificates']).toMatchObject({
      status: 'ok',
      message: expect.stringMatching(
        /^All 2 Certificates in openstack, auth-system, monitoring, cert-manager are Ready/,
      ),
    });
    expect(byId['kube.cert-manager']).toMatchObject({ status: 'ok' });
    expect(byId['kube.wildcard-secret'].status).toBe('skip');
    // The kubernetes checks of the same group do not apply to this inventory.
    for (const id of ['kube.crd-version', 'kube.service-account', 'kube.token-permission'])
      expect(byId[id].status).toBe('skip');
  });

  it("fails a not-Ready ClusterIssuer with cert-manager's reason and message, and names the certificate that is not Ready", async () => {
    const why =
      'Failed to register ACME account: 400 urn:ietf:params:acme:error:invalidContact: contact email has invalid domain';
    cluster(
      clusterIssuer(
        { acme: { server: 'https://acme.example.test/directory' } },
        ready('False', 'ErrRegisterACMEAccount', why),
      ),
      certificate('keystone-api', ready('True', 'Ready')),
      issuedSecret('keystone-api'),
      certificate(
        'nova-api',
        ready(
          'False',
          'IncorrectIssuer',
          'Issuing certificate as Secret was previously issued by ClusterIssuer.cert-manager.io/old',
        ),
      ),
    );
    const inv = acme();
    const r = await doctor(inv);
    expect(r.code).toBe(1);
    const { byId } = report(r);
    expect(byId['kube.issuer']).toMatchObject({
      status: 'fail',
      details: { ready: 'False', reason: 'ErrRegisterACMEAccount', message: why },
    });
    expect(byId['kube.issuer'].message).toContain(`ErrRegisterACMEAccount: ${why}`);
    expect(byId['kube.issuer'].advice).toMatch(/cluster_issuer_acme_email/);
    expect(byId['kube.certificates'].status).toBe('fail');
    // The issuer is the root cause: the Certificate waiting on it points there, with the issuer's fix.
    expect(byId['kube.certificates'].message).toMatch(
      /^1 of 2 Certificates in .* not current: openstack\/nova-api: its issuer ClusterIssuer atmosphere is not Ready \(kube\.issuer says why\)/,
    );
    expect(byId['kube.certificates'].message).not.toContain('keystone-api');
    expect(byId['kube.certificates'].advice).toMatch(/cluster_issuer_acme_email/);

    const text = await doctor(inv, []);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('ErrRegisterACMEAccount');
    expect(text.stdout).toContain(why);
    expect(text.stdout).toContain('cluster_issuer_acme_email');
  });

  it('passes a supplied wildcard whose TLS secret holds a good certificate and key, never printing the key', async () => {
    const leaf = pki.leaf(['*.cloud.example.test']);
    cluster(tlsSecret(leaf.cert + pki.intermediate.cert, leaf.key));
    const r = await doctor(wildcard());
    expect(r.code).toBe(0);
    const { byId } = report(r);
    expect(byId['kube.wildcard-secret']).toMatchObject({
      status: 'ok',
      details: { secret: 'openstack/wildcard-certs' },
    });
    expect(byId['kube.issuer']).toMatchObject({ status: 'skip' });
    expect(byId['kube.issuer'].message).toMatch(/cluster_issuer_type is none/);
    expect(byId['kube.certificates'].status).toBe('ok');
    expectNoKeyMaterial(r, [leaf.key]);
  });

  it('fails a wildcard secret of the wrong type, without printing its key', async () => {
    const leaf = pki.leaf(['*.cloud.example.test']);
    cluster(tlsSecret(leaf.cert + pki.intermediate.cert, leaf.key, 'Opaque'));
    const r = await doctor(wildcard());
    expect(r.code).toBe(1);
    const { byId } = report(r);
    expect(byId['kube.wildcard-secret'].status).toBe('fail');
    expect(byId['kube.wildcard-secret'].message).toBe(
      'The supplied wildcard: openstack/wildcard-certs: it is of type Opaque, not kubernetes.io/tls, so the ingress controller ignores it.',
    );
    expect(byId['kube.wildcard-secret'].advice).toMatch(/kubectl create secret tls/);
    expectNoKeyMaterial(r, [leaf.key]);
  });

  it('fails a wildcard secret whose key does not match its certificate, in JSON and text, without printing either key', async () => {
    const leaf = pki.leaf(['*.cloud.example.test']);
    const other = pki.leaf(['*.cloud.example.test']);
    cluster(tlsSecret(leaf.cert + pki.intermediate.cert, other.key));
    const inv = wildcard();
    const r = await doctor(inv);
    expect(r.code).toBe(1);
    const { byId } = report(r);
    expect(byId['kube.wildcard-secret'].status).toBe('fail');
    expect(byId['kube.wildcard-secret'].message).toContain(
      'openstack/wildcard-certs: its tls.key does not belong to its certificate',
    );
    expectNoKeyMaterial(r, [leaf.key, other.key]);

    const text = await doctor(inv, ['--verbose']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('openstack/wildcard-certs: its tls.key does not belong to its certificate');
    expectNoKeyMaterial(text, [leaf.key, other.key]);
  });

  it('skips every kube check with the reason when kubectl has no context to use', async () => {
    const config = parseYaml(readFileSync(api.kubeconfig, 'utf8')) as Record<string, unknown>;
    delete config['current-context'];
    const kubeconfig = join(dir, 'kubeconfig-without-context');
    writeFileSync(kubeconfig, toYaml(config), { mode: 0o600 });
    // A supplied wildcard and an issuer URL make every check of the group want the cluster.
    const r = await runCli(
      [
        'doctor',
        '--only',
        'kube',
        '--json',
        '--inventory',
        wildcard(),
        '--issuer-url',
        'https://oidc.example.test/cluster1',
      ],
      { env: { ...api.env, KUBECONFIG: kubeconfig } },
    );
    expect(r.code).toBe(0);
    const { report: doc } = report(r);
    expect(doc.checks.map((c) => c.id).sort()).toEqual([
      'kube.cert-manager',
      'kube.certificates',
      'kube.crd-version',
      'kube.ingress-secrets',
      'kube.issuer',
      'kube.issuer-drift',
      'kube.issuers',
      'kube.service-account',
      'kube.token-permission',
      'kube.webhook',
      'kube.wildcard-secret',
    ]);
    // kube.issuer does not apply to issuer none, cluster or not.
    expect(doc.checks.find((c) => c.id === 'kube.issuer')).toMatchObject({
      status: 'skip',
      reason: { code: 'not-applicable' },
    });
    for (const check of doc.checks.filter((c) => c.id !== 'kube.issuer')) {
      expect(check.status, check.id).toBe('skip');
      expect(check.message, check.id).toContain(
        `kubectl has no current context (kubeconfig ${kubeconfig}); pass --context NAME`,
      );
      expect(check.reason, check.id).toMatchObject({ code: 'no-cluster' });
    }
    expect(doc.summary).toMatchObject({ ok: 0, warn: 0, fail: 0, skip: 11 });
    expect(api.state.requests.filter((q) => q.path.includes('cert-manager.io'))).toEqual([]);
  });
});
