import { describe, expect, it } from 'vitest';
import {
  endpointId,
  endpointsFromCatalog,
  endpointsFromInventory,
  endpointsFromSettings,
  parseEndpoint,
  unique,
} from '../../../../../src/core/areas/tls/endpoints.js';
import { UsageError } from '../../../../../src/core/errors.js';
import { resolveList } from '../../../../../src/core/config/setting-schema.js';
import { TLS_SETTINGS } from '../../../../../src/core/config/setting-specs/checked-files.js';

/** The endpoints setting as the resolver reads it from these sources. */
const items = (given: string[], config: Record<string, unknown> = {}) =>
  resolveList(TLS_SETTINGS[0], { given: { endpoints: given }, env: {}, config, cwd: '/' });

describe('endpoints', () => {
  it('parses host, host:port, IPv6 and URLs', () => {
    expect(parseEndpoint('Identity.Example.com')).toEqual({ host: 'identity.example.com', port: 443 });
    expect(parseEndpoint('compute.example.com:8774')).toEqual({ host: 'compute.example.com', port: 8774 });
    expect(parseEndpoint('[::1]:8443')).toEqual({ host: '::1', port: 8443 });
    expect(parseEndpoint('https://image.example.com:9292/v2')).toEqual({ host: 'image.example.com', port: 9292 });
    expect(parseEndpoint('https://identity.example.com/v3')).toEqual({ host: 'identity.example.com', port: 443 });
    expect(parseEndpoint('identity.example.com:8443@10.0.0.5')).toEqual({
      host: 'identity.example.com',
      port: 8443,
      address: '10.0.0.5',
    });
    expect(parseEndpoint('identity.example.com@')).toBeUndefined();
    expect(parseEndpoint('host:99999')).toBeUndefined();
    expect(parseEndpoint('a b')).toBeUndefined();
    expect(parseEndpoint('a:1:2')).toBeUndefined();
  });

  it('names checks tls.<host>, with the port only when not 443', () => {
    expect(endpointId({ host: 'a.example', port: 443 })).toBe('tls.a.example');
    expect(endpointId({ host: 'a.example', port: 8443 })).toBe('tls.a.example:8443');
  });

  it('refuses a bad --endpoint or config entry, naming it', () => {
    expect(() => endpointsFromSettings(items(['ok.example', 'bad host']))).toThrow(/--endpoint "bad host"/);
    expect(() =>
      endpointsFromSettings(items([], { tls: { endpoints: ['x.example', 'no way'] } }), 'doctor.yml'),
    ).toThrow(UsageError);
    expect(() =>
      endpointsFromSettings(items([], { tls: { endpoints: ['x.example', 'no way'] } }), 'doctor.yml'),
    ).toThrow(/doctor.yml, tls.endpoints\[1\]/);
    expect(() => items([], { tls: { endpoints: ['x.example', { not: 'text' }] } })).toThrow(
      /tls\.endpoints must be a list/,
    );
    expect(endpointsFromSettings(items([], { tls: { endpoints: ['x.example:8443'] } }), 'doctor.yml')).toEqual([
      { host: 'x.example', port: 8443, source: 'config', origin: 'doctor.yml tls.endpoints' },
    ]);
  });

  it("adds the flags' endpoints and the config file's up, flags first, a flag listing several comma-separated", () => {
    const both = endpointsFromSettings(
      items(['a.example,b.example:8443'], { tls: { endpoints: ['c.example'] } }),
      'doctor.yml',
    );
    expect(both.map((e) => `${e.origin} ${endpointId(e)}`)).toEqual([
      '--endpoint tls.a.example',
      '--endpoint tls.b.example:8443',
      'doctor.yml tls.endpoints tls.c.example',
    ]);
  });

  it('takes only *_host variables with a host name from the inventory', () => {
    const found = endpointsFromInventory({
      openstack_helm_endpoints_keystone_api_host: 'identity.example.com',
      keycloak_host: 'auth.example.com',
      openstack_helm_ingress_wildcard_domain: 'example.com',
      templated_host: '{{ lookup() }}',
      cluster_issuer_acme_email: 'ops@example.com',
    });
    expect(found.map((e) => `${e.origin}=${e.host}`)).toEqual([
      'openstack_helm_endpoints_keystone_api_host=identity.example.com',
      'keycloak_host=auth.example.com',
    ]);
  });

  it('takes https catalog endpoints once each', () => {
    const catalog = [
      {
        type: 'identity',
        endpoints: [
          { interface: 'public', url: 'https://identity.example.com/v3' },
          { interface: 'internal', url: 'http://keystone-api.openstack.svc:5000/v3' },
        ],
      },
      {
        type: 'compute',
        endpoints: [
          { interface: 'public', url: 'https://compute.example.com:8774/v2.1' },
          { interface: 'admin', url: 'https://compute.example.com:8774/v2.1' },
        ],
      },
    ];
    expect(endpointsFromCatalog(catalog).map(endpointId)).toEqual([
      'tls.identity.example.com',
      'tls.compute.example.com:8774',
    ]);
    expect(endpointsFromCatalog('nonsense')).toEqual([]);
  });

  it('keeps the first of duplicates', () => {
    const [first] = unique(endpointsFromSettings(items(['a.example'], { tls: { endpoints: ['a.example:443'] } })));
    expect(first?.source).toBe('flag');
  });
});
