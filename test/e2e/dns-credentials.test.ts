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
import {
  hasNamed,
  requireNamed,
  startDnsApis,
  startUpdatableNamed,
  type DnsApis,
  type UpdatableNamed,
} from '../servers/dns-apis.js';

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
  return [
    w.azuredns.clientSecret,
    w.route53.accessKeyId,
    w.route53.secretAccessKey,
    w.cloudflare.token,
    w.godaddy.key,
    w.godaddy.secret,
    w.infoblox.password,
    ...(named ? [named.key.secret] : []),
  ];
}

async function doctor(
  values: Record<string, string>,
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<{ check: Check; result: CliResult }> {
  const path = join(dir, `certificates-${++count}.yml`);
  const lines = Object.entries({
    cluster_issuer_type: 'acme',
    cluster_issuer_acme_email: 'ops@example.test',
    cluster_issuer_acme_server: 'https://127.0.0.1:1/directory',
    ...values,
  });
  writeFileSync(path, lines.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n') + '\n');
  const result = await runCli(
    ['doctor', '--only', 'acme', '--json', '--inventory', path, '--ca-file', ca.file, '--timeout', '5', ...extra],
    { env: { ...apis.env, ...env } },
  );
  const printed = result.stdout + result.stderr;
  for (const secret of credentials()) expect(printed).not.toContain(secret);
  const report = JSON.parse(result.stdout) as { checks: Check[] };
  const check = report.checks.find((c) => c.id === 'acme.dns-credentials')!;
  expect(check).toBeDefined();
  return { check, result };
}

describe('cloudgate doctor --only acme: acme.dns-credentials', () => {
  it('azuredns: ok with the right secret, AADSTS7000215 with a wrong one; --verbose prints no secret either', async () => {
    const a = apis.world.azuredns;
    const base = {
      cluster_issuer_acme_solver: 'azuredns',
      cluster_issuer_acme_azuredns_client_id: a.clientId,
      cluster_issuer_acme_azuredns_client_secret: a.clientSecret,
      cluster_issuer_acme_azuredns_subscription_id: a.subscription,
      cluster_issuer_acme_azuredns_tenant_id: a.tenant,
      cluster_issuer_acme_azuredns_resourcegroup_name: a.resourceGroup,
      cluster_issuer_acme_azuredns_hostedzone_name: a.zone,
    };
    const ok = await doctor(base, ['--verbose']);
    expect(ok.check).toMatchObject({ status: 'ok', details: { zone: 'example.test' } });
    expect(ok.result.stderr).toMatch(/azuredns-login/);
    const wrong = await doctor({ ...base, cluster_issuer_acme_azuredns_client_secret: `${a.clientSecret}x` });
    expect(wrong.check).toMatchObject({ status: 'fail', details: { errorCodes: [7000215] } });
    expect(wrong.result.code).toBe(1);
  });

  it('route53 static: ok, and --probe-update upserts and deletes; a wrong secret is SignatureDoesNotMatch', async () => {
    const b = apis.world.route53;
    const base = {
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_region: 'us-east-1',
      cluster_issuer_acme_route53_hosted_zone_id: b.zones[0]!.id,
      cluster_issuer_acme_route53_access_key_id: b.accessKeyId,
      cluster_issuer_acme_route53_secret_access_key: b.secretAccessKey,
    };
    apis.world.writes.length = 0;
    const ok = await doctor(base, ['--verbose']);
    expect(ok.check).toMatchObject({ status: 'ok', details: { account: b.account } });
    expect(apis.world.writes).toEqual([]);
    const probe = await doctor(base, ['--probe-update']);
    expect(probe.check).toMatchObject({ status: 'ok', details: { probe: '_cloudgate-probe.example.test' } });
    expect(apis.world.writes).toEqual([
      'route53 UPSERT _cloudgate-probe.example.test',
      'route53 DELETE _cloudgate-probe.example.test',
    ]);
    const wrong = await doctor({
      ...base,
      cluster_issuer_acme_route53_secret_access_key: 'AAAA/BBBB/CCCC/DDDD/EEEE/FFFF/GGGG/HHHH',
    });
    expect(wrong.check).toMatchObject({ status: 'fail', details: { code: 'SignatureDoesNotMatch' } });
  });

  it('cloudflare, godaddy, infoblox: ok with good credentials, each refusal mapped', async () => {
    const w = apis.world;
    const cloudflare = {
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: w.cloudflare.token,
      openstack_helm_ingress_wildcard_domain: 'cloud.example.test',
    };
    expect((await doctor(cloudflare)).check).toMatchObject({ status: 'ok', details: { zone: 'example.test' } });
    const godaddy = {
      cluster_issuer_acme_solver: 'godaddy',
      cluster_issuer_acme_godaddy_api_key: w.godaddy.key,
      cluster_issuer_acme_godaddy_secret_key: w.godaddy.secret,
      openstack_helm_ingress_wildcard_domain: 'cloud.example.test',
    };
    w.godaddy.apiAccess = false;
    const denied = await doctor(godaddy, ['--verbose']);
    expect(denied.check).toMatchObject({ status: 'fail', details: { code: 'ACCESS_DENIED' } });
    expect(denied.check.message).toMatch(/10 or more domains/);
    w.godaddy.apiAccess = true;
    const infoblox = {
      cluster_issuer_acme_solver: 'infoblox',
      cluster_issuer_acme_infoblox_host: apis.host,
      cluster_issuer_acme_infoblox_view: 'internal',
      cluster_issuer_acme_infoblox_username: w.infoblox.username,
      cluster_issuer_acme_infoblox_password: w.infoblox.password,
    };
    expect((await doctor(infoblox, ['--verbose'])).check).toMatchObject({
      status: 'ok',
      details: { view: 'internal' },
    });
    expect((await doctor({ ...infoblox, cluster_issuer_acme_infoblox_password: 'nope-nope' })).check).toMatchObject({
      status: 'fail',
      details: { status: 401 },
    });
  });

  it('a vaulted token is skipped with the reason, and checked when its value is given in the environment', async () => {
    const path = join(dir, 'vaulted.yml');
    writeFileSync(
      path,
      [
        'cluster_issuer_type: acme',
        'cluster_issuer_acme_solver: cloudflare',
        'openstack_helm_ingress_wildcard_domain: example.test',
        'cluster_issuer_acme_cloudflare_api_token: !vault |',
        '  $ANSIBLE_VAULT;1.1;AES256',
        '  61626364',
        '',
      ].join('\n'),
    );
    const skipped = await runCli(['doctor', '--only', 'acme', '--json', '--inventory', path, '--ca-file', ca.file], {
      env: apis.env,
    });
    const check = (JSON.parse(skipped.stdout) as { checks: Check[] }).checks.find(
      (c) => c.id === 'acme.dns-credentials',
    )!;
    expect(check.status).toBe('skip');
    expect(check.message).toMatch(/vaulted/);
    const given = await runCli(['doctor', '--only', 'acme', '--json', '--inventory', path, '--ca-file', ca.file], {
      env: { ...apis.env, CLOUDGATE_CLUSTER_ISSUER_ACME_CLOUDFLARE_API_TOKEN: apis.world.cloudflare.token },
    });
    expect(given.stdout + given.stderr).not.toContain(apis.world.cloudflare.token);
    expect(
      (JSON.parse(given.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'acme.dns-credentials'),
    ).toMatchObject({ status: 'ok' });
    // The acme: section of --config may give it too, under its neutral alias: read as the platform's name, and said so.
    const config = join(dir, 'cloudgate.yml');
    writeFileSync(config, `acme:\n  cluster_issuer_acme_dnsc_api_token: ${apis.world.cloudflare.token}\n`, {
      mode: 0o600,
    });
    const configured = await runCli(
      ['doctor', '--only', 'acme', '--json', '--inventory', path, '--ca-file', ca.file, '--config', config],
      { env: apis.env },
    );
    const checks = (JSON.parse(configured.stdout) as { checks: Check[] }).checks;
    expect(checks.find((c) => c.id === 'acme.dns-credentials')).toMatchObject({ status: 'ok' });
    expect(checks.find((c) => c.id === 'acme.config')).toMatchObject({
      status: 'warn',
      advice: "Rename it to cluster_issuer_acme_cloudflare_api_token, the platform's own name.",
    });
    expect(configured.stdout + configured.stderr).not.toContain(apis.world.cloudflare.token);
  });

  it.skipIf(!requireNamed())('rfc2136: skipped without --probe-update, a signed add and delete with it', async () => {
    const base = {
      cluster_issuer_acme_solver: 'rfc2136',
      cluster_issuer_acme_rfc2136_nameserver: `127.0.0.1:${named!.port}`,
      cluster_issuer_acme_rfc2136_tsig_algorithm: named!.key.algorithm,
      cluster_issuer_acme_rfc2136_tsig_key_name: named!.key.name,
      cluster_issuer_acme_rfc2136_tsig_secret_key: named!.key.secret,
      openstack_helm_ingress_wildcard_domain: 'example.test',
    };
    expect((await doctor(base)).check).toMatchObject({ status: 'skip' });
    const before = named!.journal().length;
    const probe = await doctor(base, ['--probe-update', '--verbose']);
    expect(probe.check).toMatchObject({ status: 'ok', details: { probe: '_cloudgate-probe.example.test' } });
    expect(
      named!
        .journal()
        .slice(before)
        .map((l) => l.split(' ')[0]),
    ).toEqual(['add', 'del']);
  });

  it('http01 skips, and --probe-update is accepted by the option parser', async () => {
    const { check, result } = await doctor({}, ['--probe-update']);
    expect(check).toMatchObject({ status: 'skip' });
    expect(result.stderr).not.toMatch(/Unknown option/);
  });
});
