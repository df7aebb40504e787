import { describe, expect, it } from 'vitest';
import { assessKeySet, expectedJwksUri, issuerHostPath } from '../../../../src/core/kube/service-account-issuer.js';

describe('service-account issuer', () => {
  it('derives the key-set URL and the provider name', () => {
    expect(expectedJwksUri('https://oidc.example.com/c1')).toBe('https://oidc.example.com/c1/openid/v1/jwks');
    expect(issuerHostPath('https://oidc.example.com/c1')).toBe('oidc.example.com/c1');
  });

  it('assesses a key set: signing keys, missing members, private material', () => {
    expect(
      assessKeySet({ keys: [{ kid: 'a', kty: 'RSA', alg: 'RS256', use: 'sig', n: 'x', e: 'AQAB' }] }),
    ).toMatchObject({ signingKeys: 1, problems: [] });
    expect(assessKeySet({ keys: [{ kid: 'a', kty: 'RSA', alg: 'RS256', use: 'enc' }] }).problems[0]).toContain(
      'use "enc"',
    );
    expect(
      assessKeySet({ keys: [{ kid: 'a', kty: 'RSA', alg: 'RS256', use: 'sig', d: 'secret' }] }).problems[0],
    ).toContain('PRIVATE');
    expect(assessKeySet({ keys: [] }).problems).toContain('the "keys" array is empty');
    expect(assessKeySet([]).problems[0]).toContain('not a JSON object');
  });
});
