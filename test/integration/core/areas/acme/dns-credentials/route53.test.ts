import { describe, expect, it } from 'vitest';
import { defaultWorld } from '../../../../../servers/dns-apis.js';
import { dnsCheck, useDnsApis } from '../../../../../helpers/run-check.js';

const dns = useDnsApis('route53 CA', (apis) => {
  const fresh = defaultWorld().route53;
  apis.world.route53 = { ...apis.world.route53, allowed: fresh.allowed, zones: fresh.zones };
  apis.world.writes.length = 0;
});

function inventory(overrides: Record<string, string> = {}) {
  const b = dns.apis.world.route53;
  return {
    cluster_issuer_acme_solver: 'route53',
    cluster_issuer_acme_route53_auth: 'static',
    cluster_issuer_acme_route53_region: 'eu-west-1',
    cluster_issuer_acme_route53_hosted_zone_id: b.zones[0]!.id,
    cluster_issuer_acme_route53_access_key_id: b.accessKeyId,
    cluster_issuer_acme_route53_secret_access_key: b.secretAccessKey,
    ...overrides,
  };
}
const run = (inv: Record<string, string>, flags: Record<string, boolean> = {}) =>
  dnsCheck(inv, {
    env: dns.apis.env,
    flags,
    caFile: dns.ca.file,
    secrets: [dns.apis.world.route53.secretAccessKey, dns.apis.world.route53.accessKeyId],
  });

describe('acme.dns-credentials route53 (SigV4 verified by the test server)', () => {
  it('proves the keys with GetCallerIdentity and reads the zone by id', async () => {
    const r = await run(inventory());
    expect(r).toMatchObject({
      status: 'ok',
      facts: { account: '123456789012', hostedZoneId: 'Z0123456789ABCDEFGHIJ', zone: 'example.test' },
    });
    expect(dns.apis.world.writes).toEqual([]);
  });

  it('finds the zone by name (ListHostedZonesByName) from a subdomain when no id is set', async () => {
    const r = await run(
      inventory({
        cluster_issuer_acme_route53_hosted_zone_id: '',
        openstack_helm_ingress_wildcard_domain: 'cloud.example.test',
      }),
    );
    expect(r).toMatchObject({ status: 'ok', facts: { hostedZoneId: 'Z0123456789ABCDEFGHIJ', zone: 'example.test' } });
  });

  it('maps an unknown key id, a wrong secret, a denied action and a wrong zone id', async () => {
    expect(await run(inventory({ cluster_issuer_acme_route53_access_key_id: 'AKIAAAAAAAAAAAAAAAAA' }))).toMatchObject({
      status: 'fail',
      facts: { code: 'InvalidClientTokenId', action: 'GetCallerIdentity' },
    });
    const secret = await run(
      inventory({ cluster_issuer_acme_route53_secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' }),
    );
    expect(secret).toMatchObject({ status: 'fail', facts: { code: 'SignatureDoesNotMatch' } });
    expect(secret.advice).toMatch(/secret_access_key/);
    dns.apis.world.route53.allowed = ['GetChange'];
    const denied = await run(inventory());
    expect(denied).toMatchObject({ status: 'fail', facts: { code: 'AccessDenied', action: 'ListResourceRecordSets' } });
    expect(denied.advice).toMatch(/route53:ListResourceRecordSets/);
    const byName = await run(
      inventory({
        cluster_issuer_acme_route53_hosted_zone_id: '',
        openstack_helm_ingress_wildcard_domain: 'example.test',
      }),
    );
    expect(byName).toMatchObject({ status: 'fail', facts: { code: 'AccessDenied', action: 'ListHostedZonesByName' } });
    dns.apis.world.route53.allowed = defaultWorld().route53.allowed;
    const zone = await run(inventory({ cluster_issuer_acme_route53_hosted_zone_id: 'ZNOSUCHZONE' }));
    expect(zone).toMatchObject({ status: 'fail', facts: { code: 'NoSuchHostedZone' } });
    expect(zone.advice).toMatch(/hosted_zone_id/);
  });

  it("accepts cert-manager's own policy (no GetHostedZone) by listing the zone's records", async () => {
    dns.apis.world.route53.allowed = ['ListResourceRecordSets', 'ChangeResourceRecordSets', 'GetChange'];
    expect(await run(inventory())).toMatchObject({ status: 'ok', facts: { hostedZoneId: 'Z0123456789ABCDEFGHIJ' } });
  });

  it('with --probe-update upserts and deletes the probe record', async () => {
    const r = await run(inventory(), { 'probe-update': true });
    expect(r).toMatchObject({ status: 'ok', facts: { probe: '_cloudgate-probe.example.test' } });
    expect(dns.apis.world.writes).toEqual([
      'route53 UPSERT _cloudgate-probe.example.test',
      'route53 DELETE _cloudgate-probe.example.test',
    ]);
    expect(dns.apis.world.records.size).toBe(0);
  });

  it('skips ambient and kubernetes: their credentials are not in the inventory', async () => {
    const ambient = await run({ cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_auth: 'ambient' });
    expect(ambient).toMatchObject({ status: 'skip' });
    expect(ambient.message).toMatch(/live in the cluster/);
    const oidc = await run({ cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_auth: 'kubernetes' });
    expect(oidc.message).toMatch(/discovery\.sts/);
    expect(dns.apis.hits.sts ?? 0).toBeGreaterThan(0);
  });
});
