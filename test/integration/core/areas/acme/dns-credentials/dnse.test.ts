/** acme.dns-credentials for dnse (the grid's web API) against its local HTTPS server. */
import { describe, expect, it } from 'vitest';
import { resetTokenProviders, tokenProviderCheck, useDnsApis } from '../../../../../helpers/run-check.js';

const dns = useDnsApis('dns token providers CA', resetTokenProviders);
const run = tokenProviderCheck(dns);

describe('acme.dns-credentials dnse', () => {
  const dnse = (overrides: Record<string, string> = {}) => ({
    cluster_issuer_acme_solver: 'dnse',
    cluster_issuer_acme_dnse_host: dns.apis.host,
    cluster_issuer_acme_dnse_view: 'default',
    cluster_issuer_acme_dnse_username: dns.apis.world.dnse.username,
    cluster_issuer_acme_dnse_password: dns.apis.world.dnse.password,
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
    expect(dns.apis.world.writes).toEqual(['dnse POST _cloudgate-probe.example.test', 'dnse DELETE _cloudgate-probe.example.test']);
    const noZone = await run(dnse({ cloud_helm_ingress_wildcard_domain: 'other.test' }), { 'probe-update': true });
    expect(noZone).toMatchObject({ status: 'fail', details: { status: 400 } });
    expect(noZone.message).toMatch(/parent was not found/);
  });
});
