/** What cert-manager's ACME and solver texts mean: the ACME problem types, its own solver errors, the CA's wording. */
import { describe, expect, it } from 'vitest';
import {
  ACME_PROBLEMS,
  acmeProblemOf,
  problemIn,
  retryAfter,
  SOLVER_CASES,
} from '../../../../src/core/kube/acme-problems.js';

describe('ACME problem types', () => {
  it('holds every type of RFC 8555 section 6.7', () => {
    const rfc8555 = [
      'accountDoesNotExist',
      'alreadyRevoked',
      'badCSR',
      'badNonce',
      'badPublicKey',
      'badRevocationReason',
      'badSignatureAlgorithm',
      'caa',
      'compound',
      'connection',
      'dns',
      'externalAccountRequired',
      'incorrectResponse',
      'invalidContact',
      'malformed',
      'orderNotReady',
      'rateLimited',
      'rejectedIdentifier',
      'serverInternal',
      'tls',
      'unauthorized',
      'unsupportedContact',
      'unsupportedIdentifier',
      'userActionRequired',
    ];
    expect(rfc8555.filter((t) => !(t in ACME_PROBLEMS))).toEqual([]);
  });

  it('reads the type from the error cert-manager quotes, with the retry time of a rate limit', () => {
    const text =
      'Failed to create Order: 429 urn:ietf:params:acme:error:rateLimited: Error creating new order :: too many failed authorizations recently: see https://letsencrypt.org/docs/failed-validation-limit/, retry after 2031-04-16T09:42:15Z';
    expect(acmeProblemOf(text)).toMatchObject({
      code: 'acme:rateLimited',
      verdict: 'transient',
      retryAt: '2031-04-16T09:42:15.000Z',
    });
    expect(
      acmeProblemOf('Failed to register ACME account: 400 urn:ietf:params:acme:error:invalidContact: x'),
    ).toMatchObject({ code: 'acme:invalidContact', verdict: 'broken' });
    expect(acmeProblemOf('400 urn:acme:error:malformed: old namespace')).toMatchObject({ code: 'acme:malformed' });
    expect(acmeProblemOf('no type here')).toBeUndefined();
  });

  it('says a type no standard defines as such, not as another one', () => {
    const problem = acmeProblemOf('urn:ietf:params:acme:error:brandNew: detail')!;
    expect(problem.code).toBe('acme:brandNew');
    expect(Object.values(ACME_PROBLEMS).map((p) => p.fix)).not.toContain(problem.fix);
  });

  it.each(['', 'retry later', 'Retry-After: 120'])('finds no retry time in %j', (text) => {
    expect(retryAfter(text)).toBeUndefined();
  });
});

describe("cert-manager's solver errors", () => {
  it.each<[string, string | undefined, string]>([
    [
      'the server could not find the requested resource (post godaddy.godaddy.cert-manager.atmosphere.dev)',
      'DNS-01',
      'webhook-api-not-served',
    ],
    [
      'the server is currently unable to handle the request (post infoblox-wapi.infoblox.cert-manager.atmosphere.dev)',
      'DNS-01',
      'webhook-api-unavailable',
    ],
    [
      'error getting route53 secret access key: secret "cert-manager-issuer-route53-credentials" not found',
      'DNS-01',
      'solver-secret-missing',
    ],
    [
      'unable to assume role with web identity: operation error STS: AssumeRoleWithWebIdentity, https response error StatusCode: 403, api error AccessDenied: Not authorized',
      'DNS-01',
      'route53-assume-role-refused',
    ],
    [
      'failed to request token for cert-manager/cert-manager-route53: serviceaccounts "cert-manager-route53" is forbidden',
      'DNS-01',
      'route53-token-request',
    ],
    [
      'failed to determine Route 53 hosted zone ID: zone cloud.test. not found in Route 53 for domain _acme-challenge.nova.cloud.test.',
      'DNS-01',
      'route53-zone',
    ],
    ['DNS update failed. Server replied: NOTAUTH', 'DNS-01', 'rfc2136-refused'],
    [
      'Found no Zones for domain _acme-challenge.nova.cloud.test. (neither in the sub-domain nor in the SLD) please make sure your domain-entries in the config are correct and the API key is correctly setup with Zone.read rights.',
      'DNS-01',
      'dns-zone-not-found',
    ],
    [
      'Waiting for DNS-01 challenge propagation: DNS record for "nova.cloud.test" not yet propagated',
      'DNS-01',
      'dns-propagation',
    ],
    [
      "Waiting for DNS-01 challenge propagation: When querying the SOA record for the domain '_acme-challenge.nova.cloud.test.' using nameservers [10.96.0.10:53], rcode was expected to be 'NOERROR' or 'NXDOMAIN', but got 'SERVFAIL'",
      'DNS-01',
      'dns-soa-lookup',
    ],
    [
      "Waiting for HTTP-01 challenge propagation: wrong status code '503', expected '200'",
      'HTTP-01',
      'http-self-check-status',
    ],
    [
      'Waiting for HTTP-01 challenge propagation: did not get expected response when querying endpoint, expected "tok.key" but got: <html>',
      'HTTP-01',
      'http-self-check-answer',
    ],
    ['Waiting 30s before accepting HTTP-01 challenge without self-check', 'HTTP-01', 'wait-instead-of-self-check'],
    ['CAA self-check failed: CAA record does not match issuer', 'HTTP-01', 'caa-self-check'],
    ['unexpected non-ACME API error: EOF', 'HTTP-01', 'challenge-not-acme'],
    [
      'DNS problem: NXDOMAIN looking up A for nova.cloud.test - check that a DNS record exists for this domain',
      'HTTP-01',
      'acme:dns',
    ],
  ])('%s', (text, type, code) => {
    expect(problemIn(text, type)?.code).toBe(code);
  });

  it('does not read "connection refused" as a DNS server that REFUSED, nor an HTTP-01 error as a DNS one', () => {
    expect(problemIn('dial tcp 10.0.0.53:53: connect: connection refused', 'DNS-01')?.code).not.toBe(
      'dns-credentials-refused',
    );
    expect(problemIn('403 Forbidden', 'HTTP-01')).toBeUndefined();
    expect(problemIn('403 Forbidden', 'DNS-01')?.code).toBe('dns-credentials-refused');
  });

  it('names each case once', () => {
    expect(new Set(SOLVER_CASES.map((c) => c.code)).size).toBe(SOLVER_CASES.length);
  });
});
