/**
 * `cloudgate doctor --only acme --json` through the built binary for each DNS-01 provider, against the
 * providers' APIs on a local HTTPS server (trusted with --ca-file) and the real named for rfc2136. Every
 * case searches all of stdout and stderr for every credential. Run `npm run build` first.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestCA, type TestCA } from '../helpers/pki.js';
import { hasNamed, requireNamed, startDnsApis, startUpdatableNamed, type DnsApis, type UpdatableNamed } from '../servers/dns-apis.js';

interface Check {
  id: string;
  status: string;
  message: string;
  advice?: string;
  details?: Record<string, unknown>;
}

const dir = mkdtempSync(join(tmpdir(), 'cg-dnscred-e2e-'));
let count = 0;
let ca: TestCA;
let apis: DnsApis;
let named: UpdatableNamed | undefined;
beforeAll(async () => {
  ca = createTestCA('dns credentials e2e CA');
  apis = await startDnsApis(ca);
  if (hasNamed) named = await startUpdatableNamed();
}, 30_000);
afterAll(async () => {
  await apis?.stop();
  await named?.stop();
});

function credentials(): string[] {
  const w = apis.world;
  return [w.clouddnsa.clientSecret, w.clouddnsb.accessKeyId, w.clouddnsb.secretAccessKey, w.dnsc.token, w.dnsd.key, w.dnsd.secret, w.dnse.password, ...(named ? [named.key.secret] : [])];
}

async function doctor(values: Record<string, string>, extra: string[] = [], env: Record<string, string> = {}): Promise<{ check: Check; result: CliResult }> {
  const path = join(dir, `certificates-${++count}.yml`);
  const lines = Object.entries({ cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.test', cluster_issuer_acme_server: 'https://127.0.0.1:1/directory', ...values });
  writeFileSync(path, lines.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n') + '\n');
  const result = await runCli(['doctor', '--only', 'acme', '--json', '--inventory', path, '--ca-file', ca.file, '--timeout', '5', ...extra], { env: { ...apis.env, ...env } });
  const printed = result.stdout + result.stderr;
  for (const secret of credentials()) expect(printed).not.toContain(secret);
  const report = JSON.parse(result.stdout) as { checks: Check[] };
  const check = report.checks.find((c) => c.id === 'acme.dns-credentials')!;
  expect(check).toBeDefined();
  return { check, result };
}

describe('cloudgate doctor --only acme: acme.dns-credentials', () => {
  it('clouddnsa: ok with the right secret, AADSTS7000215 with a wrong one; --verbose prints no secret either', async () => {
    const a = apis.world.clouddnsa;
    const base = {
      cluster_issuer_acme_solver: 'clouddnsa', cluster_issuer_acme_clouddnsa_client_id: a.clientId, cluster_issuer_acme_clouddnsa_client_secret: a.clientSecret,
      cluster_issuer_acme_clouddnsa_subscription_id: a.subscription, cluster_issuer_acme_clouddnsa_tenant_id: a.tenant,
      cluster_issuer_acme_clouddnsa_resourcegroup_name: a.resourceGroup, cluster_issuer_acme_clouddnsa_hostedzone_name: a.zone,
    };
    const ok = await doctor(base, ['--verbose']);
    expect(ok.check).toMatchObject({ status: 'ok', details: { zone: 'example.test' } });
    expect(ok.result.stderr).toMatch(/clouddnsa-login/);
    const wrong = await doctor({ ...base, cluster_issuer_acme_clouddnsa_client_secret: `${a.clientSecret}x` });
    expect(wrong.check).toMatchObject({ status: 'fail', details: { errorCodes: [7000215] } });
    expect(wrong.result.code).toBe(1);
  });

  it('clouddnsb static: ok, and --probe-update upserts and deletes; a wrong secret is SignatureDoesNotMatch', async () => {
    const b = apis.world.clouddnsb;
    const base = {
      cluster_issuer_acme_solver: 'clouddnsb', cluster_issuer_acme_clouddnsb_region: 'us-east-1', cluster_issuer_acme_clouddnsb_hosted_zone_id: b.zones[0]!.id,
      cluster_issuer_acme_clouddnsb_access_key_id: b.accessKeyId, cluster_issuer_acme_clouddnsb_secret_access_key: b.secretAccessKey,
    };
    apis.world.writes.length = 0;
    const ok = await doctor(base, ['--verbose']);
    expect(ok.check).toMatchObject({ status: 'ok', details: { account: b.account } });
    expect(apis.world.writes).toEqual([]);
    const probe = await doctor(base, ['--probe-update']);
    expect(probe.check).toMatchObject({ status: 'ok', details: { probe: '_cloudgate-probe.example.test' } });
    expect(apis.world.writes).toEqual(['clouddnsb UPSERT _cloudgate-probe.example.test', 'clouddnsb DELETE _cloudgate-probe.example.test']);
    const wrong = await doctor({ ...base, cluster_issuer_acme_clouddnsb_secret_access_key: 'AAAA/BBBB/CCCC/DDDD/EEEE/FFFF/GGGG/HHHH' });
    expect(wrong.check).toMatchObject({ status: 'fail', details: { code: 'SignatureDoesNotMatch' } });
  });

  it('dnsc, dnsd, dnse: ok with good credentials, each refusal mapped', async () => {
    const w = apis.world;
    const dnsc = { cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: w.dnsc.token, cloud_helm_ingress_wildcard_domain: 'cloud.example.test' };
    expect((await doctor(dnsc)).check).toMatchObject({ status: 'ok', details: { zone: 'example.test' } });
    const dnsd = { cluster_issuer_acme_solver: 'dnsd', cluster_issuer_acme_dnsd_api_key: w.dnsd.key, cluster_issuer_acme_dnsd_secret_key: w.dnsd.secret, cloud_helm_ingress_wildcard_domain: 'cloud.example.test' };
    w.dnsd.apiAccess = false;
    const denied = await doctor(dnsd, ['--verbose']);
    expect(denied.check).toMatchObject({ status: 'fail', details: { code: 'ACCESS_DENIED' } });
    expect(denied.check.message).toMatch(/10 or more domains/);
    w.dnsd.apiAccess = true;
    const dnse = {
      cluster_issuer_acme_solver: 'dnse', cluster_issuer_acme_dnse_host: apis.host, cluster_issuer_acme_dnse_view: 'internal',
      cluster_issuer_acme_dnse_username: w.dnse.username, cluster_issuer_acme_dnse_password: w.dnse.password,
    };
    expect((await doctor(dnse, ['--verbose'])).check).toMatchObject({ status: 'ok', details: { view: 'internal' } });
    expect((await doctor({ ...dnse, cluster_issuer_acme_dnse_password: 'nope-nope' })).check).toMatchObject({ status: 'fail', details: { status: 401 } });
  });

  it('a vaulted token is skipped with the reason, and checked when its value is given in the environment', async () => {
    const path = join(dir, 'vaulted.yml');
    writeFileSync(path, [
      'cluster_issuer_type: acme',
      'cluster_issuer_acme_solver: dnsc',
      'cloud_helm_ingress_wildcard_domain: example.test',
      'cluster_issuer_acme_dnsc_api_token: !vault |',
      '  $ANSIBLE_VAULT;1.1;AES256',
      '  61626364',
      '',
    ].join('\n'));
    const skipped = await runCli(['doctor', '--only', 'acme', '--json', '--inventory', path, '--ca-file', ca.file], { env: apis.env });
    const check = (JSON.parse(skipped.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'acme.dns-credentials')!;
    expect(check.status).toBe('skip');
    expect(check.message).toMatch(/vaulted/);
    const given = await runCli(['doctor', '--only', 'acme', '--json', '--inventory', path, '--ca-file', ca.file], { env: { ...apis.env, CLOUDGATE_CLUSTER_ISSUER_ACME_DNSC_API_TOKEN: apis.world.dnsc.token } });
    expect(given.stdout + given.stderr).not.toContain(apis.world.dnsc.token);
    expect((JSON.parse(given.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'acme.dns-credentials')).toMatchObject({ status: 'ok' });
  });

  it.skipIf(!requireNamed())('rfc2136: skipped without --probe-update, a signed add and delete with it', async () => {
    const base = {
      cluster_issuer_acme_solver: 'rfc2136', cluster_issuer_acme_rfc2136_nameserver: `127.0.0.1:${named!.port}`,
      cluster_issuer_acme_rfc2136_tsig_algorithm: named!.key.algorithm, cluster_issuer_acme_rfc2136_tsig_key_name: named!.key.name,
      cluster_issuer_acme_rfc2136_tsig_secret_key: named!.key.secret, cloud_helm_ingress_wildcard_domain: 'example.test',
    };
    expect((await doctor(base)).check).toMatchObject({ status: 'skip' });
    const before = named!.journal().length;
    const probe = await doctor(base, ['--probe-update', '--verbose']);
    expect(probe.check).toMatchObject({ status: 'ok', details: { probe: '_cloudgate-probe.example.test' } });
    expect(named!.journal().slice(before).map((l) => l.split(' ')[0])).toEqual(['add', 'del']);
  });

  it('http01 skips, and --probe-update is accepted by the option parser', async () => {
    const { check, result } = await doctor({}, ['--probe-update']);
    expect(check).toMatchObject({ status: 'skip' });
    expect(result.stderr).not.toMatch(/Unknown option/);
  });
});
