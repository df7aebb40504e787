import { describe, expect, it } from 'vitest';
import { isInternalHost, issuerDifferences } from '../../../../../src/core/areas/discovery/issuer.js';

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

  it('knows internal addresses from public ones', () => {
    for (const h of [
      '10.96.0.1',
      '172.20.1.1',
      '192.168.1.10',
      '127.0.0.1',
      '169.254.1.1',
      'kubernetes.default.svc',
      'api.cluster.local',
      'master-0',
      '::1',
      'fd00::1',
    ]) {
      expect(isInternalHost(h), h).toBe(true);
    }
    for (const h of ['oidc.example.com', '8.8.8.8', '172.32.0.1', 's3.eu-west-1.amazonaws.com'])
      expect(isInternalHost(h), h).toBe(false);
  });
});
