/** What the inventory says should be served (issuer, wildcard or individual), and which hosts keep their own certificate. */
import { describe, expect, it } from 'vitest';
import {
  expectationsFrom,
  expectsWildcard,
  servedIndividually,
  type ServedExpectations,
} from '../../../../src/core/config/expectations.js';

describe('expectationsFrom', () => {
  it.each<[string, Record<string, unknown>, Partial<ServedExpectations>]>([
    ['no inventory: nothing expected', {}, { issuerType: undefined, wildcardDomain: undefined, individualHosts: [] }],
    [
      'an inventory without an issuer type: acme, the default',
      { openstack_helm_ingress_wildcard_domain: '*.cloud.test' },
      { issuerType: 'acme', wildcardDomain: 'cloud.test' },
    ],
    [
      'a supplied wildcard',
      { cluster_issuer_type: ' none ', openstack_helm_ingress_secret_name: 'wildcard-certs' },
      { issuerType: 'none', suppliedSecret: 'wildcard-certs' },
    ],
    [
      'an internal ACME server',
      { cluster_issuer_type: 'acme', cluster_issuer_acme_server: 'https://acme.internal.test/directory' },
      { acmeServer: 'https://acme.internal.test/directory' },
    ],
    [
      'the broker and monitoring hosts, lower-cased',
      {
        keycloak_host: 'SSO.cloud.test',
        kube_prometheus_stack_grafana_host: 'dash.cloud.test',
        other_host: 'x.cloud.test',
      },
      { individualHosts: ['sso.cloud.test', 'dash.cloud.test'] },
    ],
    [
      'blank and non-text values are unset',
      { cluster_issuer_type: '  ', openstack_helm_ingress_wildcard_domain: 5 },
      { issuerType: 'acme', wildcardDomain: undefined },
    ],
  ])('%s', (_, values, expected) => {
    expect(expectationsFrom(values, 'inv.yml')).toMatchObject({ inventory: 'inv.yml', ...expected });
  });
});

describe('expectsWildcard and servedIndividually', () => {
  it.each<[string, ServedExpectations, boolean]>([
    ['a wildcard domain', { issuerType: 'acme', wildcardDomain: 'cloud.test' }, true],
    ['issuer none with a secret', { issuerType: 'none', suppliedSecret: 'wildcard-certs' }, true],
    ['issuer none without a secret', { issuerType: 'none' }, false],
    ['individual certificates', { issuerType: 'acme' }, false],
  ])('expectsWildcard: %s is %s', (_, e, expected) => {
    expect(expectsWildcard(e)).toBe(expected);
  });

  it.each<[string, { host: string; origin?: string }, ServedExpectations, boolean]>([
    ['the broker by its variable', { host: 'login.cloud.test', origin: 'keycloak_host' }, { issuerType: 'acme' }, true],
    [
      'a monitoring host by its variable',
      { host: 'm.cloud.test', origin: 'kube_prometheus_stack_alertmanager_host' },
      { issuerType: 'acme' },
      true,
    ],
    [
      'a host the inventory names for the broker',
      { host: 'SSO.cloud.test' },
      { issuerType: 'acme', individualHosts: ['sso.cloud.test'] },
      true,
    ],
    ['a host by its first label', { host: 'grafana.cloud.test' }, { issuerType: 'acme' }, true],
    ['an API host', { host: 'compute.cloud.test' }, { issuerType: 'acme' }, false],
    ['the label deeper in the name', { host: 'api.keycloak.cloud.test' }, { issuerType: 'acme' }, false],
    [
      'the broker with a supplied wildcard (issuer none)',
      { host: 'keycloak.cloud.test', origin: 'keycloak_host' },
      { issuerType: 'none' },
      false,
    ],
  ])('servedIndividually: %s is %s', (_, endpoint, e, expected) => {
    expect(servedIndividually(endpoint, e)).toBe(expected);
  });
});
