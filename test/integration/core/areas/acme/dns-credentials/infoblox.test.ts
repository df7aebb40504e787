/** acme.dns-credentials for infoblox (the grid's web API) against its local HTTPS server. */
import { describe, expect, it } from 'vitest';
import { resetTokenProviders, tokenProviderCheck, useDnsApis } from '../../../../../helpers/run-check.js';

const dns = useDnsApis('dns token providers CA', resetTokenProviders);
const run = tokenProviderCheck(dns);

describe('acme.dns-credentials infoblox', () => {
  const infoblox = (overrides: Record<string, string> = {}) => ({
    cluster_issuer_acme_solver: 'infoblox',
    cluster_issuer_acme_infoblox_host: dns.apis.host,
    cluster_issuer_acme_infoblox_view: 'default',
    cluster_issuer_acme_infoblox_username: dns.apis.world.infoblox.username,
    cluster_issuer_acme_infoblox_password: dns.apis.world.infoblox.password,
    openstack_helm_ingress_wildcard_domain: 'example.test',
    ...overrides,
  });

  it('reads the view by name', async () => {
    expect(await run(infoblox())).toMatchObject({ status: 'ok', facts: { view: 'default' } });
  });

  it('maps a wrong view (empty answer, with the views the user sees) and bad credentials (401)', async () => {
    const view = await run(infoblox({ cluster_issuer_acme_infoblox_view: 'external' }));
    expect(view).toMatchObject({ status: 'fail', facts: { views: ['default', 'internal'] } });
    expect(view.message).toMatch(/no DNS view "external"/);
    const bad = await run(infoblox({ cluster_issuer_acme_infoblox_password: 'wrong-password' }));
    expect(bad).toMatchObject({ status: 'fail', facts: { status: 401 } });
    expect(bad.advice).toMatch(/cluster_issuer_acme_infoblox_password/);
  });

  it('with --probe-update creates and deletes the probe record in the view', async () => {
    expect(await run(infoblox(), { 'probe-update': true })).toMatchObject({
      status: 'ok',
      facts: { probe: '_cloudgate-probe.example.test' },
    });
    expect(dns.apis.world.writes).toEqual([
      'infoblox POST _cloudgate-probe.example.test',
      'infoblox DELETE _cloudgate-probe.example.test',
    ]);
    const noZone = await run(infoblox({ openstack_helm_ingress_wildcard_domain: 'other.test' }), {
      'probe-update': true,
    });
    expect(noZone).toMatchObject({ status: 'fail', facts: { status: 400 } });
    expect(noZone.message).toMatch(/parent was not found/);
  });
});
