/** acme.dns-credentials for dnsc (API token) against its local HTTPS server. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dnsCheck, resetTokenProviders, tokenProviderCheck, useDnsApis } from '../../../../../helpers/run-check.js';

const dns = useDnsApis('dns token providers CA', resetTokenProviders);
const run = tokenProviderCheck(dns);

describe('acme.dns-credentials dnsc', () => {
  const dnsc = (token = dns.apis.world.dnsc.token, domain = 'cloud.example.test') => ({ cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: token, cloud_helm_ingress_wildcard_domain: domain });

  it('verifies the token, finds the zone from a subdomain and reads its records', async () => {
    const r = await run(dnsc());
    expect(r).toMatchObject({ status: 'ok', details: { zone: 'example.test', zoneId: '023e105f4ecef8ad9ca31a8372d0c353' } });
    expect(dns.apis.world.writes).toEqual([]);
  });

  it('names a global API key used as a token (400, 6003/6111)', async () => {
    const globalKey = randomBytes(19).toString('hex').slice(0, 37);
    const r = await dnsCheck(dnsc(globalKey), { env: dns.apis.env, caFile: dns.ca.file, secrets: [globalKey] });
    expect(r).toMatchObject({ status: 'fail', details: { status: 400, errorCodes: [6003, 6111] } });
    expect(r.message).toMatch(/global API key/);
  });

  it('maps an invalid token, a token without the zone, and a token without DNS permission', async () => {
    const other = randomBytes(30).toString('base64url');
    expect(await dnsCheck(dnsc(other), { env: dns.apis.env, caFile: dns.ca.file, secrets: [other] })).toMatchObject({ status: 'fail', details: { status: 401, errorCodes: [1000] } });
    dns.apis.world.dnsc.visible = [];
    const hidden = await run(dnsc());
    expect(hidden).toMatchObject({ status: 'fail' });
    expect(hidden.message).toMatch(/no zone for cloud\.example\.test/);
    dns.apis.world.dnsc.visible = ['example.test'];
    dns.apis.world.dnsc.dns = 'none';
    expect(await run(dnsc())).toMatchObject({ status: 'fail', details: { status: 403, errorCodes: [10000] } });
    dns.apis.world.dnsc.dns = 'read';
    const readOnly = await run(dnsc(), { 'probe-update': true });
    expect(readOnly).toMatchObject({ status: 'fail', details: { status: 403 } });
    dns.apis.world.dnsc.status = 'disabled';
    expect(await run(dnsc())).toMatchObject({ status: 'fail', details: { tokenStatus: 'disabled' } });
  });

  it('with --probe-update creates and deletes the probe record', async () => {
    expect(await run(dnsc(), { 'probe-update': true })).toMatchObject({ status: 'ok', details: { probe: '_cloudgate-probe.example.test' } });
    expect(dns.apis.world.writes).toEqual(['dnsc POST _cloudgate-probe.example.test', 'dnsc DELETE _cloudgate-probe.example.test']);
    expect(dns.apis.world.records.size).toBe(0);
  });

  it('without a wildcard domain uses --domain, or warns that only the token was verified', async () => {
    const noDomain = { cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: dns.apis.world.dnsc.token };
    expect(await run(noDomain)).toMatchObject({ status: 'warn' });
    expect(await run(noDomain, { domain: 'api.example.test' })).toMatchObject({ status: 'ok', details: { zone: 'example.test' } });
  });
});
