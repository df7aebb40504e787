/**
 * cert-manager's validating webhook for the issuers the role renders, as its source (v1.15.5 and
 * v1.21.1) sets the rules: what it refuses, in Kubernetes' field error text, and what it accepts.
 */
import { describe, expect, it } from 'vitest';
import {
  issuerErrors,
  validNameserver,
  type WebhookVersion,
} from '../../../../src/core/render/cert-manager-webhook.js';

const acme = (solver: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  acme: {
    email: 'pki@example.com',
    server: 'https://acme.example/directory',
    privateKeySecretRef: { name: 'key' },
    solvers: [solver],
    ...extra,
  },
});
const errors = (spec: unknown, version: WebhookVersion = '1.15.5') => issuerErrors(spec, version).map((e) => e.text);

describe('util.ValidNameserver (unchanged from v1.15.5 to v1.21.1)', () => {
  it.each<[string, string | undefined]>([
    ['ns1.example.com', 'ns1.example.com:53'],
    ['ns1.example.com:5353', 'ns1.example.com:5353'],
    ['8.8.8.8', '8.8.8.8:53'],
    ['[2001:db8::1]', '[2001:db8::1]:53'],
    ['[2001:db8::1]:53', '[2001:db8::1]:53'],
    ['ns1:', 'ns1:53'],
    ['ns1:abc', 'ns1:abc'],
    ['  ns1.example.com  ', 'ns1.example.com:53'],
    ['2001:db8::1', undefined],
    ['2001:db8::1:53', undefined],
    [':53', undefined],
    ['[2001:db8::1', undefined],
    ['', undefined],
  ])('%j → %j', (value, expected) => {
    expect(validNameserver(value)).toBe(expected);
  });
});

describe('issuerErrors', () => {
  it('an empty ACME server or account key name is refused, an empty email is not checked', () => {
    expect(
      errors({
        acme: {
          email: '',
          server: '',
          privateKeySecretRef: { name: '' },
          solvers: [{ http01: { ingress: { class: 'x' } } }],
        },
      }),
    ).toEqual([
      'spec.acme.privateKeySecretRef.name: Required value: private key secret name is a required field',
      'spec.acme.server: Required value: acme server URL is a required field',
    ]);
  });

  it("rfc2136: a host alone and an empty algorithm are accepted; BIND's algorithm name and a bare IPv6 address are not", () => {
    const rfc = (fields: Record<string, unknown>) =>
      acme({
        dns01: { rfc2136: { tsigKeyName: 'k', tsigSecretSecretRef: { name: 's', key: 'tsig-secret-key' }, ...fields } },
      });
    expect(errors(rfc({ nameserver: 'ns1.example.com', tsigAlgorithm: '' }))).toEqual([]);
    expect(errors(rfc({ nameserver: 'ns1.example.com:53', tsigAlgorithm: 'hmacsha256' }))).toEqual([]);
    expect(errors(rfc({ nameserver: 'ns1.example.com:53', tsigAlgorithm: 'hmac-sha256' }))).toEqual([
      'spec.acme.solvers[0].dns01.rfc2136.tsigAlgorithm: Unsupported value: "": supported values: "HMACMD5", "HMACSHA1", "HMACSHA256", "HMACSHA512"',
    ]);
    expect(errors(rfc({ nameserver: '2001:db8::1' }))[0]).toMatch(
      /^spec\.acme\.solvers\[0\]\.dns01\.rfc2136\.nameserver: Invalid value: "2001:db8::1": nameserver must be set in the form host:port/,
    );
    expect(errors(rfc({ nameserver: '', tsigKeyName: '' }))).toEqual([
      'spec.acme.solvers[0].dns01.rfc2136.nameserver: Required value',
      'spec.acme.solvers[0].dns01.rfc2136.tsigKeyName: Required value',
    ]);
  });

  it('route53: an empty hosted zone id is accepted; an empty region only by v1.21.1', () => {
    const r53 = acme({ dns01: { route53: { region: '', hostedZoneID: '' } } });
    expect(errors(r53, '1.15.5')).toEqual(['spec.acme.solvers[0].dns01.route53.region: Required value']);
    expect(errors(r53, '1.21.1')).toEqual([]);
    expect(
      errors(
        acme({
          dns01: { route53: { region: 'eu-west-1', auth: { kubernetes: { serviceAccountRef: { name: 'sa' } } } } },
        }),
      ),
    ).toEqual([]);
  });

  it('azureDNS: the service principal fields, subscription and resource group are required, the hosted zone name is not', () => {
    const azure = (fields: Record<string, unknown>) =>
      acme({
        dns01: {
          azureDNS: {
            clientID: 'c',
            tenantID: 't',
            subscriptionID: 's',
            resourceGroupName: 'r',
            hostedZoneName: '',
            clientSecretSecretRef: { name: 'n', key: 'client-secret' },
            environment: 'AzurePublicCloud',
            ...fields,
          },
        },
      });
    expect(errors(azure({}))).toEqual([]);
    expect(errors(azure({ clientID: '', subscriptionID: '' }))).toEqual([
      'spec.acme.solvers[0].dns01.azureDNS.clientID: Required value',
      'spec.acme.solvers[0].dns01.azureDNS.subscriptionID: Required value',
    ]);
    expect(errors(azure({ environment: 'AzureCloud' }), '1.15.5')[0]).toContain(
      'AzureGermanCloud or AzureUSGovernmentCloud',
    );
    expect(errors(azure({ environment: 'AzureCloud' }), '1.21.1')[0]).toContain(
      'AzureGermanCloud, or AzureUSGovernmentCloud',
    );
  });

  it('http01: class alone is fine; v1.15.5 forbids only all three of class, ingressClassName and name, v1.21.1 any two', () => {
    const two = acme({ http01: { ingress: { class: 'a', ingressClassName: 'b' } } });
    expect(errors(two, '1.15.5')).toEqual([]);
    expect(errors(two, '1.21.1')).toEqual([
      "spec.acme.solvers[0].http01.ingress: Forbidden: only one of 'ingressClassName', 'name' or 'class' should be specified",
    ]);
  });

  it('venafi, ca and a merged issuer of two types', () => {
    expect(errors({ venafi: { zone: '', tpp: { url: '', credentialsRef: { name: 'c' } } } })).toEqual([
      'spec.venafi.zone: Required value',
      'spec.venafi.tpp.url: Required value',
    ]);
    expect(errors({ ca: { secretName: '' } })).toEqual(['spec.ca.secretName: Required value']);
    expect(errors({ ...acme({ http01: { ingress: { class: 'x' } } }), ca: { secretName: 'ca' } })).toEqual([
      'spec.ca: Forbidden: may not specify more than one issuer type',
    ]);
    expect(errors({})).toEqual(['spec: Required value: at least one issuer must be configured']);
  });

  it('webhook: the solver name is required, the group name and config are not checked', () => {
    expect(errors(acme({ dns01: { webhook: { groupName: '', solverName: '', config: { anything: 1 } } } }))).toEqual([
      'spec.acme.solvers[0].dns01.webhook.solverName: Required value: solver name must be specified',
    ]);
  });
});
