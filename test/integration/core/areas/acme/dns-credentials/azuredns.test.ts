import { describe, expect, it } from 'vitest';
import { defaultWorld } from '../../../../../servers/dns-apis.js';
import { dnsCheck, useDnsApis } from '../../../../../helpers/run-check.js';

const dns = useDnsApis('azuredns CA', (apis) => {
  Object.assign(apis.world, {
    ...defaultWorld(),
    azuredns: {
      ...apis.world.azuredns,
      role: 'contributor',
      secretExpired: false,
      subscriptionTenant: apis.world.azuredns.tenant,
    },
  });
  apis.world.writes.length = 0;
});

function inventory(overrides: Record<string, string> = {}) {
  const a = dns.apis.world.azuredns;
  return {
    cluster_issuer_acme_solver: 'azuredns',
    cluster_issuer_acme_azuredns_client_id: a.clientId,
    cluster_issuer_acme_azuredns_client_secret: a.clientSecret,
    cluster_issuer_acme_azuredns_subscription_id: a.subscription,
    cluster_issuer_acme_azuredns_tenant_id: a.tenant,
    cluster_issuer_acme_azuredns_resourcegroup_name: a.resourceGroup,
    cluster_issuer_acme_azuredns_hostedzone_name: a.zone,
    ...overrides,
  };
}
const run = (inv: Record<string, string>, flags: Record<string, boolean> = {}) =>
  dnsCheck(inv, { env: dns.apis.env, flags, caFile: dns.ca.file, secrets: [dns.apis.world.azuredns.clientSecret] });

describe('acme.dns-credentials azuredns', () => {
  it('reads the zone with a token, and writes nothing without --probe-update', async () => {
    const r = await run(inventory());
    expect(r).toMatchObject({ status: 'ok', facts: { provider: 'azuredns', zone: 'example.test' } });
    expect(r.message).toMatch(/Nothing was written/);
    expect(dns.apis.world.writes).toEqual([]);
  });

  it('with --probe-update puts and deletes the probe record set, leaving nothing', async () => {
    const r = await run(inventory(), { 'probe-update': true });
    expect(r).toMatchObject({ status: 'ok', facts: { probe: '_cloudgate-probe.example.test' } });
    expect(dns.apis.world.writes).toEqual([
      'azuredns PUT _cloudgate-probe.example.test',
      'azuredns DELETE _cloudgate-probe.example.test',
    ]);
    expect(dns.apis.world.records.size).toBe(0);
  });

  it('maps an invalid secret (AADSTS7000215), an expired one (7000222) and an unknown tenant (90002)', async () => {
    const wrong = await run(inventory({ cluster_issuer_acme_azuredns_client_secret: 'not-the-secret-value' }));
    expect(wrong).toMatchObject({ status: 'fail', facts: { errorCodes: [7000215], status: 401 } });
    expect(wrong.advice).toMatch(/value, not its id/);
    dns.apis.world.azuredns.secretExpired = true;
    expect(await run(inventory())).toMatchObject({ status: 'fail', facts: { errorCodes: [7000222] } });
    const tenant = await run(
      inventory({ cluster_issuer_acme_azuredns_tenant_id: '00000000-0000-0000-0000-000000000000' }),
    );
    expect(tenant).toMatchObject({ status: 'fail', facts: { errorCodes: [90002], status: 400 } });
    expect(tenant.advice).toMatch(/tenant/);
  });

  it('maps no role on the zone (403 AuthorizationFailed), a wrong zone (404 ResourceNotFound) and a subscription of another tenant', async () => {
    dns.apis.world.azuredns.role = 'none';
    const denied = await run(inventory());
    expect(denied).toMatchObject({ status: 'fail', facts: { status: 403, code: 'AuthorizationFailed' } });
    expect(denied.advice).toMatch(/DNS Zone Contributor/);
    dns.apis.world.azuredns.role = 'reader';
    const readOnly = await run(inventory(), { 'probe-update': true });
    expect(readOnly).toMatchObject({ status: 'fail', facts: { code: 'AuthorizationFailed' } });
    expect(readOnly.message).toMatch(/read but not change/);
    dns.apis.world.azuredns.role = 'contributor';
    expect(await run(inventory({ cluster_issuer_acme_azuredns_hostedzone_name: 'other.test' }))).toMatchObject({
      status: 'fail',
      facts: { status: 404, code: 'ResourceNotFound' },
    });
    expect(await run(inventory({ cluster_issuer_acme_azuredns_resourcegroup_name: 'nope' }))).toMatchObject({
      status: 'fail',
      facts: { code: 'ResourceGroupNotFound' },
    });
    dns.apis.world.azuredns.subscriptionTenant = '22222222-2222-2222-2222-222222222222';
    expect(await run(inventory())).toMatchObject({
      status: 'fail',
      facts: { code: 'InvalidAuthenticationTokenTenant' },
    });
  });

  it('skips a vaulted secret unless its value is given in the environment', async () => {
    const vaulted = { ...inventory() } as Record<string, unknown>;
    delete vaulted.cluster_issuer_acme_azuredns_client_secret;
    const skipped = await run(vaulted as Record<string, string>);
    expect(skipped).toMatchObject({ status: 'skip' });
    expect(skipped.message).toMatch(/cluster_issuer_acme_azuredns_client_secret is not set/);
    const fromEnv = await dnsCheck(vaulted, {
      env: {
        ...dns.apis.env,
        CLOUDGATE_CLUSTER_ISSUER_ACME_AZUREDNS_CLIENT_SECRET: dns.apis.world.azuredns.clientSecret,
      },
      caFile: dns.ca.file,
      secrets: [dns.apis.world.azuredns.clientSecret],
    });
    expect(fromEnv).toMatchObject({ status: 'ok' });
  });
});
