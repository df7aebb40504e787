import { describe, expect, it } from 'vitest';
import { assessKeySet, expectedJwksUri, isInternalHost, issuerDifferences, issuerHostPath, issuerUrlProblems } from '../../../../../src/core/areas/discovery/issuer.js';
import { parseRoleArn } from '../../../../../src/core/config/discovery-settings.js';
import { normalizeThumbprint } from '../../../../../src/core/oidc/thumbprint.js';

describe('issuer rules', () => {
  it('compares the issuer byte for byte and names each difference', () => {
    const url = 'https://oidc.example.com/c1';
    expect(issuerDifferences(url, url)).toEqual([]);
    expect(issuerDifferences(url, `${url}/`)).toEqual(['the document has a trailing slash the URL lacks']);
    expect(issuerDifferences(`${url}/`, url)).toEqual(['the URL has a trailing slash the document lacks']);
    expect(issuerDifferences(url, 'http://oidc.example.com/c1')).toEqual(['scheme http instead of https']);
    expect(issuerDifferences(url, 'https://oidc.example.com:8443/c1')).toEqual(['port 8443 instead of (default)']);
    expect(issuerDifferences(url, 'https://OIDC.example.com/c1')).toEqual(['they differ in letter case']);
    expect(issuerDifferences(url, 'https://oidc.example.com/C1')).toEqual(['the path differs in letter case']);
    expect(issuerDifferences(url, 'https://kubernetes.default.svc.cluster.local')).toEqual([
      'host kubernetes.default.svc.cluster.local instead of oidc.example.com',
      'path "/" instead of "/c1"',
    ]);
  });

  it('refuses URLs that cannot be issuers', () => {
    expect(issuerUrlProblems('https://oidc.example.com/c1')).toEqual([]);
    expect(issuerUrlProblems('http://oidc.example.com')[0]).toContain('https://');
    expect(issuerUrlProblems('https://oidc.example.com/?a=b')[0]).toContain('query');
    expect(issuerUrlProblems('https://oidc.example.com/c1/')[0]).toContain('trailing slash');
    expect(issuerUrlProblems('oidc.example.com')[0]).toContain('not a URL');
  });

  it('derives the key-set URL and the provider name', () => {
    expect(expectedJwksUri('https://oidc.example.com/c1')).toBe('https://oidc.example.com/c1/openid/v1/jwks');
    expect(issuerHostPath('https://oidc.example.com/c1')).toBe('oidc.example.com/c1');
  });

  it('knows internal addresses from public ones', () => {
    for (const h of ['10.96.0.1', '172.20.1.1', '192.168.1.10', '127.0.0.1', '169.254.1.1', 'kubernetes.default.svc', 'api.cluster.local', 'master-0', '::1', 'fd00::1']) {
      expect(isInternalHost(h), h).toBe(true);
    }
    for (const h of ['oidc.example.com', '8.8.8.8', '172.32.0.1', 's3.eu-west-1.amazonaws.com']) expect(isInternalHost(h), h).toBe(false);
  });

  it('assesses a key set: signing keys, missing members, private material', () => {
    expect(assessKeySet({ keys: [{ kid: 'a', kty: 'RSA', alg: 'RS256', use: 'sig', n: 'x', e: 'AQAB' }] })).toMatchObject({ signingKeys: 1, problems: [] });
    expect(assessKeySet({ keys: [{ kid: 'a', kty: 'RSA', alg: 'RS256', use: 'enc' }] }).problems[0]).toContain('use "enc"');
    expect(assessKeySet({ keys: [{ kid: 'a', kty: 'RSA', alg: 'RS256', use: 'sig', d: 'secret' }] }).problems[0]).toContain('PRIVATE');
    expect(assessKeySet({ keys: [] }).problems).toContain('the "keys" array is empty');
    expect(assessKeySet([]).problems[0]).toContain('not a JSON object');
  });

  it('parses role ARNs and thumbprints', () => {
    expect(parseRoleArn('arn:aws:iam::123456789012:role/dns/certmgr')).toEqual({ partition: 'aws', account: '123456789012', roleName: 'certmgr' });
    expect(parseRoleArn('arn:aws-cn:iam::123456789012:role/x')).toMatchObject({ partition: 'aws-cn' });
    expect(parseRoleArn('arn:aws:iam::1234:role/x')).toBeUndefined();
    expect(normalizeThumbprint('AB:CD:' + 'ef'.repeat(18))).toBe('abcd' + 'ef'.repeat(18));
    expect(normalizeThumbprint('abc')).toBeUndefined();
  });
});

describe('public trust of a served chain', () => {
  it('counts a chain ending at a bundled public root, not one ending at a private CA', async () => {
    const { X509Certificate } = await import('node:crypto');
    const { rootCertificates } = await import('node:tls');
    // One rule for every group: the top of the chain is, or is issued by, a bundled public root.
    const { chainsToPublicRoot } = await import('../../../../../src/core/tls/served-path.js');
    const { createTestCA } = await import('../../../../helpers/pki.js');
    const ca = createTestCA('private');
    const leaf = new X509Certificate(ca.issue(['oidc.example.com']).cert);
    expect(chainsToPublicRoot(new X509Certificate(ca.cert))).toBe(false);
    expect(chainsToPublicRoot(leaf)).toBe(false);
    expect(chainsToPublicRoot(new X509Certificate(rootCertificates[0]))).toBe(true);
  });
});
