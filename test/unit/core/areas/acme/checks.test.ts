/** What the name server's answer means for cert-manager's rfc2136 updates (acme.rfc2136), on answers built here. */
import { describe, expect, it } from 'vitest';
import { nameserverResult } from '../../../../../src/core/areas/acme/checks.js';
import type { DnsAnswer, TsigKey } from '../../../../../src/core/areas/acme/dns-probe.js';

const KEY: TsigKey = { name: 'cert-manager', algorithm: 'HMACSHA256', secret: 'c2VjcmV0' };
const at = { zone: 'cloud.example.test', wildcard: 'cloud.example.test', where: 'ns1.example.test:53' };
const answer = (over: Partial<DnsAnswer> = {}, tsig: Partial<NonNullable<DnsAnswer['tsig']>> = {}): DnsAnswer => ({
  rcode: 'NOERROR',
  authoritative: true,
  answers: 1,
  address: '192.0.2.53',
  zone: 'example.test',
  tsig: { error: 'NOERROR', signed: true, verified: true, ...tsig },
  ...over,
});

describe('nameserverResult', () => {
  it.each<
    [string, DnsAnswer, TsigKey | null, Partial<typeof at>, 'ok' | 'warn' | 'fail', RegExp, Record<string, unknown>]
  >([
    [
      'the key accepted, authoritative for the zone',
      answer(),
      KEY,
      {},
      'ok',
      /is authoritative for cloud\.example\.test \(zone example\.test\); the TSIG key "cert-manager"/,
      { rcode: 'NOERROR', tsigError: 'NOERROR', responseVerified: true, zone: 'example.test' },
    ],
    [
      'NXDOMAIN from the authoritative server is as good',
      answer({ rcode: 'NXDOMAIN' }),
      KEY,
      {},
      'ok',
      /is authoritative for/,
      { rcode: 'NXDOMAIN' },
    ],
    [
      'BADSIG: the secret differs',
      answer({ rcode: 'NOTAUTH' }, { error: 'BADSIG', verified: false }),
      KEY,
      {},
      'fail',
      /\(BADSIG\)/,
      { tsigError: 'BADSIG' },
    ],
    [
      'BADKEY: no such key and algorithm',
      answer({ rcode: 'NOTAUTH' }, { error: 'BADKEY', signed: false, verified: false }),
      KEY,
      {},
      'fail',
      /knows no key "cert-manager" with algorithm HMACSHA256 \(BADKEY\)/,
      { tsigError: 'BADKEY' },
    ],
    [
      'BADTIME: the clocks differ',
      answer({ rcode: 'NOTAUTH' }, { error: 'BADTIME', serverTime: new Date('2031-01-01T00:00:00Z') }),
      KEY,
      {},
      'fail',
      /\(BADTIME\)/,
      { tsigError: 'BADTIME', serverTime: '2031-01-01T00:00:00.000Z' },
    ],
    [
      'another TSIG error',
      answer({ rcode: 'NOTAUTH' }, { error: 'BADTRUNC' }),
      KEY,
      {},
      'fail',
      /answered the TSIG-signed query with BADTRUNC/,
      { tsigError: 'BADTRUNC' },
    ],
    [
      'NOTAUTH for the zone',
      answer({ rcode: 'NOTAUTH', authoritative: false }),
      KEY,
      {},
      'fail',
      /not authoritative for cloud\.example\.test, or rejects the key "cert-manager" for it \(NOTAUTH\)/,
      { rcode: 'NOTAUTH' },
    ],
    [
      'REFUSED for the zone',
      answer({ rcode: 'REFUSED', authoritative: false }),
      KEY,
      {},
      'fail',
      /refused the query for cloud\.example\.test \(REFUSED\)/,
      { rcode: 'REFUSED' },
    ],
    [
      'REFUSED without a wildcard domain is no refusal of a zone',
      answer({ rcode: 'REFUSED', authoritative: false }),
      KEY,
      { zone: '.', wildcard: undefined },
      'ok',
      /answers DNS \(SOA \. → REFUSED\)/,
      {},
    ],
    [
      'an unsigned answer to a signed query',
      answer({}, { signed: false, verified: false }),
      KEY,
      {},
      'fail',
      /is not signed "cert-manager"/,
      { responseSigned: false },
    ],
    [
      'a signature that does not verify',
      answer({}, { verified: false }),
      KEY,
      {},
      'fail',
      /does not verify with the key/,
      { responseVerified: false },
    ],
    [
      'no key to test: authority only, and says so',
      answer({ tsig: undefined }),
      null,
      {},
      'ok',
      /The TSIG key was not tested/,
      { rcode: 'NOERROR' },
    ],
    [
      'answers but not authoritatively',
      answer({ authoritative: false }),
      null,
      {},
      'warn',
      /not authoritatively for cloud\.example\.test \(NOERROR, not authoritative\)/,
      { authoritative: false },
    ],
    [
      'SERVFAIL, authoritative bit set',
      answer({ rcode: 'SERVFAIL' }),
      KEY,
      {},
      'warn',
      /not authoritatively for cloud\.example\.test \(SERVFAIL\)/,
      { rcode: 'SERVFAIL' },
    ],
  ])('%s', (_, dns, key, where, status, message, facts) => {
    const result = nameserverResult(dns, key, { ...at, ...where });
    expect(result.status).toBe(status);
    expect(result.message).toMatch(message);
    expect(result.facts).toMatchObject({ nameserver: 'ns1.example.test:53', ...facts });
    if (status !== 'ok') expect(result.advice).toBeTruthy();
    if (!key) expect(result.facts).not.toHaveProperty('key');
  });

  it.each([
    ['BADSIG', 'cluster_issuer_acme_rfc2136_tsig_secret_key'],
    ['BADKEY', 'cluster_issuer_acme_rfc2136_tsig_algorithm'],
    ['BADTIME', 'NTP'],
  ])('the advice for %s names %s', (error, named) => {
    expect(nameserverResult(answer({ rcode: 'NOTAUTH' }, { error }), KEY, at).advice).toContain(named);
  });
});
