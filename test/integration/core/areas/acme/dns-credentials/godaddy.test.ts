/** acme.dns-credentials for godaddy (key and secret) against its local HTTPS server. */
import { describe, expect, it } from 'vitest';
import { resetTokenProviders, tokenProviderCheck, useDnsApis } from '../../../../../helpers/run-check.js';

const dns = useDnsApis('dns token providers CA', resetTokenProviders);
const run = tokenProviderCheck(dns);

describe('acme.dns-credentials godaddy', () => {
  const godaddy = (key = dns.apis.world.godaddy.key) => ({
    cluster_issuer_acme_solver: 'godaddy',
    cluster_issuer_acme_godaddy_api_key: key,
    cluster_issuer_acme_godaddy_secret_key: dns.apis.world.godaddy.secret,
    openstack_helm_ingress_wildcard_domain: 'cloud.example.test',
  });

  it('reads the registered domain above the wildcard domain', async () => {
    expect(await run(godaddy())).toMatchObject({
      status: 'ok',
      facts: { domain: 'example.test', domainStatus: 'ACTIVE' },
    });
  });

  it("explains 403 ACCESS_DENIED with the provider's size limit, and 401 for a wrong key", async () => {
    dns.apis.world.godaddy.apiAccess = false;
    const denied = await run(godaddy());
    expect(denied).toMatchObject({ status: 'fail', facts: { status: 403, code: 'ACCESS_DENIED' } });
    expect(denied.message).toMatch(/10 or more domains/);
    expect(denied.message).toMatch(/Discount Domain Club/);
    dns.apis.world.godaddy.apiAccess = true;
    expect(await run(godaddy('0123456789abcdef0123456789abcdef'))).toMatchObject({
      status: 'fail',
      facts: { status: 401, code: 'UNABLE_TO_AUTHENTICATE' },
    });
  });

  it('with --probe-update adds and deletes the probe record', async () => {
    expect(await run(godaddy(), { 'probe-update': true })).toMatchObject({
      status: 'ok',
      facts: { probe: '_cloudgate-probe.example.test' },
    });
    expect(dns.apis.world.writes).toEqual([
      'godaddy PATCH _cloudgate-probe.example.test',
      'godaddy DELETE _cloudgate-probe.example.test',
    ]);
    expect(dns.apis.world.records.size).toBe(0);
  });
});
