import { describe, expect, it } from 'vitest';
import { checkEndpoint } from '../../../../../src/core/areas/tls/checks.js';
import { openServices } from '../../../../../src/core/doctor/services.js';
import { expectationsFrom, type ServedExpectations } from '../../../../../src/core/config/expectations.js';
import { useTlsEndpoints } from '../../../../helpers/tls-endpoints.js';

const tls = useTlsEndpoints();

/** A real TLS server serving an individual certificate for `host`, checked as `origin` names it. */
async function individual(host: string, expected: ServedExpectations, origin = '--endpoint') {
  const leaf = tls.pki.leaf([host]);
  const e = await tls.start({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key });
  return checkEndpoint(
    { host, port: e.port, source: 'flag', origin, address: '127.0.0.1' },
    expected,
    openServices({
      timeoutMs: 3000,
      insecure: false,
      allowHttp: false,
      verbose: false,
      log: () => undefined,
      caFile: tls.pki.rootFile,
    }),
  );
}

const automaticWildcard = {
  cluster_issuer_type: 'acme',
  cluster_issuer_acme_server: 'https://acme.test.localhost/directory',
  openstack_helm_ingress_wildcard_domain: 'test.localhost',
};

describe('individual certificates the platform serves even in wildcard mode', () => {
  it('does not flag the identity broker and monitoring hosts, by variable or by name', async () => {
    const expected = expectationsFrom({
      ...automaticWildcard,
      keycloak_host: 'sso.test.localhost',
      kube_prometheus_stack_grafana_host: 'dash.test.localhost',
    });
    for (const host of [
      'sso.test.localhost',
      'dash.test.localhost',
      'keycloak.test.localhost',
      'alertmanager.test.localhost',
      'prometheus.test.localhost',
    ]) {
      const result = await individual(host, expected);
      expect({ host, status: result.status }).toEqual({ host, status: 'ok' });
    }
    expect(
      (await individual('login.test.localhost', expectationsFrom(automaticWildcard), 'keycloak_host')).status,
    ).toBe('ok');
  });

  it('still warns an individual certificate on an API host, and on the broker with a supplied wildcard', async () => {
    const api = await individual('compute.test.localhost', expectationsFrom(automaticWildcard));
    expect(api.status).toBe('warn');
    expect(api.message).toMatch(/individual certificate/);
    const supplied = expectationsFrom({
      cluster_issuer_type: 'none',
      openstack_helm_ingress_secret_name: 'wildcard-certs',
      openstack_helm_ingress_wildcard_domain: 'test.localhost',
    });
    expect((await individual('keycloak.test.localhost', supplied)).status).toBe('warn');
  });
});
