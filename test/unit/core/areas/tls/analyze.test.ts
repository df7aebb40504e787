/** What one TLS probe means (`tls.<host>`), judged on built certificates and probe results, without a server. */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { analyzeServed } from '../../../../../src/core/areas/tls/analyze.js';
import type { Endpoint } from '../../../../../src/core/areas/tls/endpoints.js';
import type { ServedExpectations } from '../../../../../src/core/config/expectations.js';
import type { TlsProbeResult } from '../../../../../src/core/net/tls-probe.js';
import { DAY, issue } from '../../../../helpers/pki.js';

const x509 = (issued: { cert: string }) => new X509Certificate(issued.cert);
const root = issue({ cn: 'Analyze Root', ca: true });
const intermediate = issue({ cn: 'Analyze Intermediate', ca: true, issuer: root });
const staging = issue({ cn: '(STAGING) Pretend Pear X1', ca: true, issuer: root });
const leaf = (dns: string[], options: Partial<Parameters<typeof issue>[0]> = {}) =>
  x509(issue({ cn: dns[0] ?? 'leaf', dns, issuer: intermediate, ...options }));

const CERT = {
  api: leaf(['api.cloud.test']),
  keycloak: leaf(['keycloak.cloud.test']),
  wildcard: leaf(['*.cloud.test']),
  expired: leaf(['api.cloud.test'], {
    notBefore: new Date(Date.now() - 100 * DAY),
    notAfter: new Date(Date.now() - 1.5 * DAY),
  }),
  future: leaf(['api.cloud.test'], { notBefore: new Date(Date.now() + DAY) }),
  soon: leaf(['api.cloud.test'], { notAfter: new Date(Date.now() + 10 * DAY + 3_600_000) }),
  fromStaging: x509(issue({ cn: 'api.cloud.test', dns: ['api.cloud.test'], issuer: staging })),
  selfSigned: x509(issue({ cn: 'api.cloud.test', dns: ['api.cloud.test'] })),
  fake: x509(issue({ cn: 'Kubernetes Ingress Controller Fake Certificate', dns: ['ingress.local'] })),
  unrelated: x509(issue({ cn: 'Someone Else', ca: true })),
  intermediate: x509(intermediate),
  staging: x509(staging),
  root: x509(root),
};

const endpoint = (host = 'api.cloud.test', origin = '--endpoint'): Endpoint => ({
  host,
  port: 443,
  source: 'flag',
  origin,
});
const trusted: TlsProbeResult = {
  chain: [CERT.api, CERT.intermediate],
  chainAsServed: true,
  authorized: true,
  chainTrusted: true,
  hostMatches: true,
  trustStore: 'system',
  protocol: 'TLSv1.3',
};
const untrusted = (code: string, chain: X509Certificate[]): Partial<TlsProbeResult> => ({
  chain,
  authorized: false,
  chainTrusted: false,
  authorizationError: code,
});

interface Row {
  host?: string;
  origin?: string;
  probe?: Partial<TlsProbeResult>;
  expected?: ServedExpectations;
  insecure?: boolean;
  /** The result's status, then the level of each problem found, and a word of the first message. */
  status: 'ok' | 'warn' | 'fail';
  problems: string[];
  says?: RegExp;
  facts?: Record<string, unknown>;
}

const ROWS: Record<string, Row> = {
  'a trusted chain in order that covers the host': {
    status: 'ok',
    problems: [],
    facts: { trusted: true, chainOrder: 'in order', subject: 'api.cloud.test', issuer: 'Analyze Intermediate' },
  },
  'no certificate at all': { probe: { chain: [] }, status: 'fail', problems: [], says: /presented no certificate/ },
  "the ingress controller's fake certificate": {
    probe: { ...untrusted('DEPTH_ZERO_SELF_SIGNED_CERT', [CERT.fake]), hostMatches: false },
    status: 'fail',
    problems: ['fail', 'fail', 'fail'],
    says: /Fake Certificate/,
  },
  'an expired certificate': {
    probe: { chain: [CERT.expired, CERT.intermediate] },
    status: 'fail',
    problems: ['fail'],
    says: /expired on/,
    facts: { daysLeft: -2 },
  },
  'a certificate not valid yet': {
    probe: { chain: [CERT.future, CERT.intermediate] },
    status: 'fail',
    problems: ['fail'],
    says: /not valid before/,
  },
  'a certificate expiring within 30 days': {
    probe: { chain: [CERT.soon, CERT.intermediate] },
    status: 'warn',
    problems: ['warn'],
    says: /expires in 10 days/,
    facts: { daysLeft: 10 },
  },
  'a certificate for another host': {
    host: 'other.cloud.test',
    probe: { hostMatches: false },
    status: 'fail',
    problems: ['fail'],
    says: /does not cover other\.cloud\.test/,
  },
  'a wildcard two labels up': {
    host: 'a.b.cloud.test',
    probe: { chain: [CERT.wildcard, CERT.intermediate], hostMatches: false },
    status: 'fail',
    problems: ['fail'],
    says: /does not cover/,
  },
  'a chain missing its intermediate': {
    probe: untrusted('UNABLE_TO_VERIFY_LEAF_SIGNATURE', [CERT.api]),
    status: 'fail',
    problems: ['fail'],
    says: /neither served nor trusted/,
  },
  'a chain ending at an untrusted root': {
    probe: untrusted('SELF_SIGNED_CERT_IN_CHAIN', [CERT.api, CERT.intermediate, CERT.root]),
    status: 'fail',
    problems: ['fail'],
    says: /ends at the root "Analyze Root"/,
  },
  'another verification error': {
    probe: untrusted('CERT_REVOKED', [CERT.api, CERT.intermediate]),
    status: 'fail',
    problems: ['fail'],
    says: /not trusted \(CERT_REVOKED\)/,
  },
  'an untrusted chain with --insecure': {
    probe: untrusted('UNABLE_TO_VERIFY_LEAF_SIGNATURE', [CERT.api]),
    insecure: true,
    status: 'ok',
    problems: [],
    facts: { trusted: 'not checked (--insecure)' },
  },
  'a self-signed certificate with issuer self-signed': {
    probe: untrusted('DEPTH_ZERO_SELF_SIGNED_CERT', [CERT.selfSigned]),
    expected: { issuerType: 'self-signed' },
    status: 'warn',
    problems: ['warn'],
    says: /self-signed certificate, not trusted/,
  },
  'a self-signed certificate with issuer ca': {
    probe: untrusted('DEPTH_ZERO_SELF_SIGNED_CERT', [CERT.selfSigned]),
    expected: { issuerType: 'ca' },
    status: 'fail',
    problems: ['fail', 'fail'],
    says: /self-signed certificate, not trusted/,
  },
  'a chain out of order': {
    probe: { chain: [CERT.api, CERT.root, CERT.intermediate] },
    status: 'warn',
    problems: ['warn'],
    says: /out of order/,
    facts: { chainOrder: 'out of order' },
  },
  'an unrelated certificate in the chain': {
    probe: { chain: [CERT.api, CERT.intermediate, CERT.unrelated] },
    status: 'warn',
    problems: ['warn'],
    says: /1 certificate\(s\) unrelated/,
  },
  'a certificate from an ACME staging issuer': {
    probe: { chain: [CERT.fromStaging, CERT.staging] },
    expected: { issuerType: 'acme' },
    status: 'fail',
    problems: ['fail'],
    says: /staging issuer/,
  },
  'a private CA where a public ACME CA is configured': {
    expected: { issuerType: 'acme' },
    status: 'warn',
    problems: ['warn'],
    says: /a private CA/,
  },
  'a private CA with an internal ACME server configured': {
    expected: { issuerType: 'acme', acmeServer: 'https://acme.internal.test/directory' },
    status: 'ok',
    problems: [],
  },
  'an individual certificate where a wildcard is configured': {
    expected: { issuerType: 'ca', wildcardDomain: 'cloud.test' },
    status: 'warn',
    problems: ['warn'],
    says: /individual certificate/,
  },
  'the identity broker with its own certificate in wildcard mode': {
    host: 'keycloak.cloud.test',
    probe: { chain: [CERT.keycloak, CERT.intermediate] },
    expected: { issuerType: 'ca', wildcardDomain: 'cloud.test' },
    status: 'ok',
    problems: [],
  },
  'a wildcard certificate where individual ones are configured': {
    probe: { chain: [CERT.wildcard, CERT.intermediate] },
    expected: { issuerType: 'ca' },
    status: 'warn',
    problems: ['warn'],
    says: /serves a wildcard certificate/,
  },
  'an expired certificate served out of order: the failure leads': {
    probe: { chain: [CERT.expired, CERT.root, CERT.intermediate] },
    status: 'fail',
    problems: ['fail', 'warn'],
    says: /expired on .*\(\+1 more: .*out of order/,
  },
};

describe('analyzeServed', () => {
  it.each(Object.entries(ROWS))('%s', (_, row) => {
    const result = analyzeServed(
      endpoint(row.host, row.origin),
      { ...trusted, ...row.probe },
      row.expected ?? {},
      new Date(),
      { insecure: row.insecure },
    );
    expect(result.status).toBe(row.status);
    expect(((result.facts?.problems ?? []) as string[]).map((p) => p.split(':')[0])).toEqual(row.problems);
    if (row.says) expect(result.message).toMatch(row.says);
    if (row.facts) expect(result.facts).toMatchObject(row.facts);
    if (row.status !== 'ok') expect(result.advice).toBeTruthy();
  });
});
