/** acme.dns-credentials for dnse (the grid's web API) against its local HTTPS server. */
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

describe('acme.dns-credentials dnse', () => {
  const dnse = (overrides: Record<string, string> = {}) => ({
    cluster_issuer_acme_solver: 'dnse',
    cluster_issuer_acme_dnse_host: apis.host,
    cluster_issuer_acme_dnse_view: 'default',
    cluster_issuer_acme_dnse_username: apis.world.dnse.username,
    cluster_issuer_acme_dnse_password: apis.world.dnse.password,
    cloud_helm_ingress_wildcard_domain: 'example.test',
    ...overrides,
  });

  it('reads the view by name', async () => {
    expect(await run(dnse())).toMatchObject({ status: 'ok', details: { view: 'default' } });
  });

  it('maps a wrong view (empty answer, with the views the user sees) and bad credentials (401)', async () => {
    const view = await run(dnse({ cluster_issuer_acme_dnse_view: 'external' }));
    expect(view).toMatchObject({ status: 'fail', details: { views: ['default', 'internal'] } });
    expect(view.message).toMatch(/no DNS view "external"/);
    const bad = await run(dnse({ cluster_issuer_acme_dnse_password: 'wrong-password' }));
    expect(bad).toMatchObject({ status: 'fail', details: { status: 401 } });
    expect(bad.advice).toMatch(/cluster_issuer_acme_dnse_password/);
  });

  it('with --probe-update creates and deletes the probe record in the view', async () => {
    expect(await run(dnse(), { 'probe-update': true })).toMatchObject({ status: 'ok', details: { probe: '_cloudgate-probe.example.test' } });
    expect(apis.world.writes).toEqual(['dnse POST _cloudgate-probe.example.test', 'dnse DELETE _cloudgate-probe.example.test']);
    const noZone = await run(dnse({ cloud_helm_ingress_wildcard_domain: 'other.test' }), { 'probe-update': true });
    expect(noZone).toMatchObject({ status: 'fail', details: { status: 400 } });
    expect(noZone.message).toMatch(/parent was not found/);
  });
});
