/** acme.dns-credentials for cloudflare (API token) against its local HTTPS server. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dnsCheck, resetTokenProviders, tokenProviderCheck, useDnsApis } from '../../../../../helpers/run-check.js';

const dns = useDnsApis('dns token providers CA', resetTokenProviders);
const run = tokenProviderCheck(dns);

describe('acme.dns-credentials cloudflare', () => {
  const cloudflare = (token = dns.apis.world.cloudflare.token, domain = 'cloud.example.test') => ({
    cluster_issuer_acme_solver: 'cloudflare',
    cluster_issuer_acme_cloudflare_api_token: token,
    openstack_helm_ingress_wildcard_domain: domain,
  });

  it('verifies the token, finds the zone from a subdomain and reads its records', async () => {
    const r = await run(cloudflare());
    expect(r).toMatchObject({
      status: 'ok',
      facts: { zone: 'example.test', zoneId: '023e105f4ecef8ad9ca31a8372d0c353' },
    });
    expect(dns.apis.world.writes).toEqual([]);
  });

  it('names a global API key used as a token (400, 6003/6111)', async () => {
    const globalKey = randomBytes(19).toString('hex').slice(0, 37);
    const r = await dnsCheck(cloudflare(globalKey), { env: dns.apis.env, caFile: dns.ca.file, secrets: [globalKey] });
    expect(r).toMatchObject({ status: 'fail', facts: { status: 400, errorCodes: [6003, 6111] } });
    expect(r.message).toMatch(/global API key/);
  });

  it('maps an invalid token, a token without the zone, and a token without DNS permission', async () => {
    const other = randomBytes(30).toString('base64url');
    expect(
      await dnsCheck(cloudflare(other), { env: dns.apis.env, caFile: dns.ca.file, secrets: [other] }),
    ).toMatchObject({ status: 'fail', facts: { status: 401, errorCodes: [1000] } });
    dns.apis.world.cloudflare.visible = [];
    const hidden = await run(cloudflare());
    expect(hidden).toMatchObject({ status: 'fail' });
    expect(hidden.message).toMatch(/no zone for cloud\.example\.test/);
    dns.apis.world.cloudflare.visible = ['example.test'];
    dns.apis.world.cloudflare.dns = 'none';
    expect(await run(cloudflare())).toMatchObject({ status: 'fail', facts: { status: 403, errorCodes: [10000] } });
    dns.apis.world.cloudflare.dns = 'read';
    const readOnly = await run(cloudflare(), { 'probe-update': true });
    expect(readOnly).toMatchObject({ status: 'fail', facts: { status: 403 } });
    dns.apis.world.cloudflare.status = 'disabled';
    expect(await run(cloudflare())).toMatchObject({ status: 'fail', facts: { tokenStatus: 'disabled' } });
  });

  it('with --probe-update creates and deletes the probe record', async () => {
    expect(await run(cloudflare(), { 'probe-update': true })).toMatchObject({
      status: 'ok',
      facts: { probe: '_cloudgate-probe.example.test' },
    });
    expect(dns.apis.world.writes).toEqual([
      'cloudflare POST _cloudgate-probe.example.test',
      'cloudflare DELETE _cloudgate-probe.example.test',
    ]);
    expect(dns.apis.world.records.size).toBe(0);
  });

  it('without a wildcard domain uses --domain, or warns that only the token was verified', async () => {
    const noDomain = {
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: dns.apis.world.cloudflare.token,
    };
    expect(await run(noDomain)).toMatchObject({ status: 'warn' });
    expect(await run(noDomain, { domain: 'api.example.test' })).toMatchObject({
      status: 'ok',
      facts: { zone: 'example.test' },
    });
  });
});
