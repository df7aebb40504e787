/** acme.dns-credentials for dnsd (key and secret) against its local HTTPS server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestCA, type TestCA } from '../../../../../helpers/pki.js';
import { defaultWorld, startDnsApis, type DnsApis } from '../../../../../servers/dns-apis.js';
import { dnsCheck } from '../../../../../helpers/run-check.js';

let ca: TestCA;
let apis: DnsApis;
beforeAll(async () => {
  ca = createTestCA('dns token providers CA');
  apis = await startDnsApis(ca);
});
afterAll(() => apis.stop());
beforeEach(() => {
  const fresh = defaultWorld();
  apis.world.dnsc = { ...fresh.dnsc, token: apis.world.dnsc.token };
  apis.world.dnsd = { ...apis.world.dnsd, apiAccess: true };
  apis.world.writes.length = 0;
});

const secrets = () => [apis.world.dnsc.token, apis.world.dnsd.key, apis.world.dnsd.secret, apis.world.dnse.password];
const run = (inv: Record<string, string>, flags: Record<string, boolean | string> = {}) => dnsCheck(inv, { env: apis.env, flags, caFile: ca.file, secrets: secrets() });

describe('acme.dns-credentials dnsd', () => {
  const dnsd = (key = apis.world.dnsd.key) => ({ cluster_issuer_acme_solver: 'dnsd', cluster_issuer_acme_dnsd_api_key: key, cluster_issuer_acme_dnsd_secret_key: apis.world.dnsd.secret, cloud_helm_ingress_wildcard_domain: 'cloud.example.test' });

  it('reads the registered domain above the wildcard domain', async () => {
    expect(await run(dnsd())).toMatchObject({ status: 'ok', details: { domain: 'example.test', domainStatus: 'ACTIVE' } });
  });

  it('explains 403 ACCESS_DENIED with the provider\'s size limit, and 401 for a wrong key', async () => {
    apis.world.dnsd.apiAccess = false;
    const denied = await run(dnsd());
    expect(denied).toMatchObject({ status: 'fail', details: { status: 403, code: 'ACCESS_DENIED' } });
    expect(denied.message).toMatch(/10 or more domains/);
    expect(denied.message).toMatch(/Discount Domain Club/);
    apis.world.dnsd.apiAccess = true;
    expect(await run(dnsd('0123456789abcdef0123456789abcdef'))).toMatchObject({ status: 'fail', details: { status: 401, code: 'UNABLE_TO_AUTHENTICATE' } });
  });

  it('with --probe-update adds and deletes the probe record', async () => {
    expect(await run(dnsd(), { 'probe-update': true })).toMatchObject({ status: 'ok', details: { probe: '_cloudgate-probe.example.test' } });
    expect(apis.world.writes).toEqual(['dnsd PATCH _cloudgate-probe.example.test', 'dnsd DELETE _cloudgate-probe.example.test']);
    expect(apis.world.records.size).toBe(0);
  });
});
