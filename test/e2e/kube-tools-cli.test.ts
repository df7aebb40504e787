/**
 * cmctl's tools in cloudgate, through the built binary against the Kubernetes API emulation and the real
 * kubectl: `status certificate`, `inspect secret`, `renew`, and `doctor --only kube` (its webhook probe,
 * and --strict on healthy platforms). Run `npm run build` first.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { brokenStates, healthyStates, transientStates, type ClusterState } from '../helpers/cert-manager-states.js';
import { KubeState, startKubeApi, type KubeApi } from '../servers/kube-api.js';

let api: KubeApi | undefined;
afterEach(async () => {
  await api?.stop();
  api = undefined;
});

async function cluster(state: ClusterState): Promise<KubeApi> {
  const kube = new KubeState().add(...state.objects);
  state.tune?.(kube);
  api = await startKubeApi(kube);
  return api;
}

const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runCli(args, { env: { ...api!.env, ...extra }, timeoutMs: 90_000 });
const json = <T>(r: CliResult): T => JSON.parse(r.stdout) as T;
const named = (list: ClusterState[], part: string) => list.find((s) => s.name.includes(part))!;
const inventory = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'cg-kube-tools-')), 'certificates.yml');
  writeFileSync(path, text);
  return path;
};

interface Status {
  schema: string;
  verdict: { status: string; cause?: string; advice?: string; stuck?: { step: string } };
  order?: { events: { reason: string }[] };
  challenges: unknown[];
  issuer: { ref: string; exists: boolean };
}

describe('cloudgate status certificate', () => {
  it('shows a healthy Certificate as cmctl does, with the verdict ok (exit 0)', async () => {
    await cluster(named(healthyStates(), 'ACME platform, HTTP-01'));
    const text = await cli(['status', 'certificate', 'openstack/keystone-api']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Name: keystone-api\nNamespace: openstack\n/);
    expect(text.stdout).toMatch(/Issuer:\n {2}Name: atmosphere\n {2}Kind: ClusterIssuer/);
    expect(text.stdout).toMatch(/Verdict: ok/);
    const r = await cli(['status', 'certificate', 'openstack/keystone-api', '--json']);
    expect(json<Status>(r)).toMatchObject({
      schema: 'cloudgate.status-certificate/v1',
      verdict: { status: 'ok' },
      issuer: { ref: 'ClusterIssuer atmosphere', exists: true },
    });
  });

  it('says why a wildcard is stuck: its Order has no Challenge, and its Warning event says no solver can be used (exit 1)', async () => {
    await cluster(named(brokenStates(), 'wildcard order with no challenge'));
    const r = await cli(['status', 'certificate', 'openstack/atmosphere-wildcard', '--json']);
    expect(r.code).toBe(1);
    const status = json<Status>(r);
    expect(status.verdict).toMatchObject({ status: 'fail', cause: 'Solver', stuck: { step: 'order' } });
    expect(status.order!.events.map((e) => e.reason)).toContain('Solver');
    expect(status.challenges).toEqual([]);
    const text = await cli(['status', 'certificate', 'openstack/atmosphere-wildcard']);
    expect(text.stdout).toMatch(/Challenges: none/);
    expect(text.stdout).toMatch(/Fix: .*DNS-01 solver/);
  });

  it('a Certificate that does not exist is an input error naming the ones there are (exit 2)', async () => {
    await cluster(named(healthyStates(), 'ACME platform, HTTP-01'));
    const r = await cli(['status', 'certificate', 'openstack/keystone-ap']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/There is no Certificate openstack\/keystone-ap\./);
    expect(r.stderr).toMatch(/Did you mean openstack\/keystone-api\?/);
  });

  it.each<[string[], RegExp]>([
    [['status', 'certificate', 'keystone-api'], /is not NAMESPACE\/NAME/],
    [
      ['status', 'certificat', 'openstack/keystone-api'],
      /takes "certificate", not "certificat".*\n.*Did you mean "certificate"/,
    ],
    [['status'], /needs "certificate"/],
    [
      ['status', 'certificate', 'openstack/keystone-api', 'openstack/nova-api'],
      /Unexpected argument "openstack\/nova-api"/,
    ],
    [['status', 'certificate', 'Open_Stack/keystone-api'], /is not a namespace name/],
  ])('refuses %j as a usage error (exit 2)', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('without a cluster to ask it says why (exit 1)', async () => {
    const r = await runCli(['status', 'certificate', 'openstack/keystone-api'], {
      env: { KUBECONFIG: join(tmpdir(), 'cg-no-such-kubeconfig') },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Cannot ask the cluster: kubectl has no current context/);
  });
});

interface Inspection {
  schema: string;
  status: string;
  key: { state: string };
  chain: { inOrder: boolean; rightOrder?: number[] };
  findings: { code: string }[];
  certificates: { dnsNames: string[] }[];
  secret: { annotations: Record<string, string> };
}

describe('cloudgate inspect secret', () => {
  it("decodes a TLS secret: its chain, names, key and cert-manager's annotations (exit 0), never the key", async () => {
    const state = named(healthyStates(), 'ACME platform, HTTP-01');
    await cluster(state);
    const r = await cli(['inspect', 'secret', 'openstack/keystone-api-certs', '--json']);
    expect(r.code).toBe(0);
    const inspection = json<Inspection>(r);
    expect(inspection).toMatchObject({
      schema: 'cloudgate.inspect-secret/v1',
      status: 'ok',
      key: { state: 'matches' },
      chain: { inOrder: true },
      findings: [],
    });
    expect(inspection.certificates[0]!.dnsNames).toEqual(['keystone-api.cloud.test']);
    expect(inspection.secret.annotations).toMatchObject({
      'cert-manager.io/issuer-name': 'atmosphere',
      'cert-manager.io/certificate-name': 'keystone-api',
    });
    const text = await cli(['inspect', 'secret', 'openstack/keystone-api-certs']);
    expect(text.stdout).toMatch(/tls\.key: .*belongs to the first certificate/);
    const key = state.objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'keystone-api-certs')!
      .data as Record<string, string>;
    const keyPem = Buffer.from(key['tls.key']!, 'base64').toString();
    for (const output of [r.stdout, text.stdout]) {
      expect(output).not.toMatch(/PRIVATE KEY/);
      expect(output).not.toContain(keyPem.split('\n')[1]!);
      expect(output).not.toContain(key['tls.key']!.slice(0, 40));
    }
  });

  it('a reversed chain is one finding, its order, not also a key that does not match (exit 1)', async () => {
    await cluster(named(brokenStates(), 'chain is reversed'));
    const r = await cli(['inspect', 'secret', 'openstack/wildcard-certs', '--json']);
    expect(r.code).toBe(1);
    const inspection = json<Inspection>(r);
    expect(inspection.findings.map((f) => f.code)).toEqual(['chain-order']);
    expect(inspection.chain).toMatchObject({ inOrder: false, rightOrder: [3, 2, 1] });
    expect(inspection.key.state).toBe('belongs-to-another');
  });

  it('an expired certificate (exit 1), and a Secret that does not exist (exit 2)', async () => {
    await cluster(named(brokenStates(), 'expired while its Certificate says Ready'));
    const expired = await cli(['inspect', 'secret', 'openstack/glance-api-certs', '--json']);
    expect(expired.code).toBe(1);
    expect(json<Inspection>(expired).findings.map((f) => f.code)).toEqual(['expired']);
    const missing = await cli(['inspect', 'secret', 'openstack/nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/There is no Secret openstack\/nope/);
  });
});

interface Renewal {
  schema: string;
  certificates: { namespace: string; name: string; result: string }[];
}
const issuingOf = (k: KubeApi, name: string) =>
  (
    k.state.get('Certificate', name, 'openstack')!.status as {
      conditions: { type: string; status: string; reason: string }[];
    }
  ).conditions;

describe('cloudgate renew', () => {
  it('does what cmctl renew does: Issuing True, reason ManuallyTriggered, the other conditions kept; nothing deleted', async () => {
    const k = await cluster(named(healthyStates(), 'ACME platform, HTTP-01'));
    const r = await cli(['renew', 'openstack/keystone-api']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Manually triggered issuance of Certificate openstack/keystone-api\n');
    expect(issuingOf(k, 'keystone-api').map((c) => `${c.type} ${c.status} ${c.reason}`)).toEqual([
      'Ready True Ready',
      'Issuing True ManuallyTriggered',
    ]);
    expect(k.state.deleted).toEqual([]);
    const patches = k.state.requests.filter((q) => q.method === 'PATCH');
    expect(patches.map((q) => q.path)).toEqual([
      '/apis/cert-manager.io/v1/namespaces/openstack/certificates/keystone-api/status',
    ]);
  });

  it('starts nothing where cert-manager is already issuing, and renews several', async () => {
    const k = await cluster(named(transientStates(), 'renewal under way'));
    const r = await cli(['renew', 'openstack/glance-api', 'openstack/nova-api', '--json']);
    expect(r.code).toBe(0);
    expect(json<Renewal>(r).certificates.map((c) => `${c.name} ${c.result}`)).toEqual([
      'glance-api already-issuing',
      'nova-api triggered',
    ]);
    expect(issuingOf(k, 'glance-api').find((c) => c.type === 'Issuing')!.reason).toBe('Renewing');
  });

  it('does not renew while the ACME CA rate-limits it (exit 1), unless --force', async () => {
    const state = named(transientStates(), 'rate-limited renewal');
    const k = await cluster(state);
    const refused = await cli(['renew', 'openstack/glance-api', '--json']);
    expect(refused.code).toBe(1);
    expect(json<Renewal>(refused).certificates[0]!.result).toBe('rate-limited');
    expect(k.state.requests.some((q) => q.method === 'PATCH')).toBe(false);
    const forced = await cli(['renew', 'openstack/glance-api', '--force']);
    expect(forced.code).toBe(0);
    expect(issuingOf(k, 'glance-api').find((c) => c.type === 'Issuing')).toMatchObject({
      status: 'True',
      reason: 'ManuallyTriggered',
    });
  });

  it('a Certificate that does not exist stops the run before anything changes (exit 2)', async () => {
    const k = await cluster(named(healthyStates(), 'ACME platform, HTTP-01'));
    const r = await cli(['renew', 'openstack/keystone-api', 'openstack/nope']);
    expect(r.code).toBe(2);
    expect(k.state.requests.some((q) => q.method === 'PATCH')).toBe(false);
  });

  it("is what the doctor's advice names: the command it prints works as printed", async () => {
    const k = await cluster(named(brokenStates(), 'expired while its Certificate says Ready'));
    const doctor = await cli([
      'doctor',
      '--only',
      'kube',
      '--json',
      '--inventory',
      inventory(named(brokenStates(), 'expired while its Certificate says Ready').inventory),
    ]);
    const certificates = json<{ checks: { id: string; advice?: string }[] }>(doctor).checks.find(
      (c) => c.id === 'kube.certificates',
    )!;
    const command = /cloudgate (renew \S+)/.exec(certificates.advice ?? '')?.[1];
    expect(command).toBe('renew openstack/glance-api');
    const r = await cli(command!.split(' '));
    expect(r.code).toBe(0);
    expect(issuingOf(k, 'glance-api').find((c) => c.type === 'Issuing')!.reason).toBe('ManuallyTriggered');
  });
});

describe('cloudgate doctor --only kube', () => {
  it.each(['self-signed platform', 'octavia and libvirt'])('is green under --strict on a healthy %s', async (part) => {
    const state = named(healthyStates(), part);
    await cluster(state);
    const r = await cli(['doctor', '--only', 'kube', '--strict', '--json', '--inventory', inventory(state.inventory)]);
    const report = json<{ summary: Record<string, number>; checks: { id: string; status: string }[] }>(r);
    expect(report.checks.filter((c) => c.status === 'warn' || c.status === 'fail')).toEqual([]);
    expect(r.code).toBe(0);
    expect(report.checks.map((c) => c.id)).toEqual(expect.arrayContaining(['kube.webhook', 'kube.issuers']));
  });

  it("probes cert-manager's webhook as cmctl check api does: a dry-run create, nothing stored", async () => {
    const state = named(brokenStates(), 'webhook Service missing');
    const k = await cluster(state);
    const r = await cli(['doctor', '--only', 'kube', '--json', '--inventory', inventory(state.inventory)]);
    expect(r.code).toBe(1);
    const webhook = json<{ checks: { id: string; status: string; details?: { cause?: string } }[] }>(r).checks.find(
      (c) => c.id === 'kube.webhook',
    )!;
    expect(webhook).toMatchObject({ status: 'fail', details: { cause: 'WebhookServiceMissing' } });
    const creates = k.state.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/certificaterequests'));
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.every((q) => q.query.dryRun === 'All')).toBe(true);
    expect(
      k.state.list('CertificateRequest').filter((o) => o.metadata.name.startsWith('cloudgate-webhook-probe')),
    ).toEqual([]);
  });
});

describe('the help of the new commands', () => {
  it.each([
    ['status', /Usage: cloudgate status certificate NAMESPACE\/NAME \[options\]/],
    ['inspect', /Usage: cloudgate inspect secret NAMESPACE\/NAME/],
    ['renew', /Usage: cloudgate renew NAMESPACE\/NAME\.\.\./],
  ])('%s --help names its arguments', async (command, usage) => {
    const r = await runCli([command, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(usage);
    expect(r.stdout).toMatch(/Arguments:/);
  });
});
