/** discovery.tls judged on the TLS facts of the issuer hosts (no server). */
import { describe, expect, it } from 'vitest';
import { tlsResult, type TlsFacts } from '../../../../../src/core/areas/discovery/tls.js';

const top = (leafOnly = false) => ({ subject: 'CN=Top CA', issuer: 'CN=Root', thumbprint: 'a'.repeat(40), leafOnly });
const host = (over: Partial<TlsFacts> = {}): TlsFacts => ({
  url: 'https://oidc.example.com/c1',
  host: 'oidc.example.com:443',
  trusted: true,
  publiclyTrusted: true,
  hostMatches: true,
  trustStore: 'system',
  top: top(),
  ...over,
});

describe('tlsResult', () => {
  it.each<[string, TlsFacts[], boolean, 'ok' | 'warn' | 'fail', RegExp]>([
    [
      'publicly trusted, with its intermediate',
      [host()],
      false,
      'ok',
      /^Publicly trusted\. oidc\.example\.com:443 tops its chain with "CN=Top CA" \(thumbprint a{40}\)/,
    ],
    [
      'publicly trusted, leaf only: the thumbprint changes at renewal',
      [host({ top: top(true) })],
      false,
      'warn',
      /serve\(s\) no intermediate/,
    ],
    [
      'trusted only through a private CA',
      [host({ publiclyTrusted: false, trustStore: 'system, ca.pem' })],
      false,
      'warn',
      /^Trusted here \(system, ca\.pem\) but not by the public roots/,
    ],
    [
      'not trusted',
      [host({ trusted: false, publiclyTrusted: false, authorizationError: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' })],
      false,
      'fail',
      /the chain is not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/,
    ],
    ['a certificate for another host', [host({ hostMatches: false })], false, 'fail', /does not name this host/],
    [
      'one of two hosts unreachable',
      [host(), host({ host: 'keys.example.com:443', error: 'connect ECONNREFUSED', top: undefined })],
      false,
      'fail',
      /^keys\.example\.com:443: connect ECONNREFUSED$/,
    ],
    ['--insecure judges nothing', [host({ trusted: false })], true, 'warn', /^Not verified \(--insecure\)/],
  ])('%s', (_, facts, insecure, status, message) => {
    const result = tlsResult(facts, insecure);
    expect(result.status).toBe(status);
    expect(result.message).toMatch(message);
    expect(result.facts).toEqual({ hosts: facts });
    expect(result.advice).toBeTruthy();
  });
});
