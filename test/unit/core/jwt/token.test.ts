import { constants, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { audiences, jwtClaims, jwtHeader, verifySignature } from '../../../../src/core/jwt/token.js';

const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('reading a JWT (through jose, never verified)', () => {
  it('gives the claims and header of a JWT and nothing for what is not one', () => {
    expect(jwtClaims(`${part({ alg: 'none' })}.${part({ sub: 'alice', exp: 1 })}.sig`)).toMatchObject({
      sub: 'alice',
      exp: 1,
    });
    expect(jwtHeader(`${part({ alg: 'RS256', kid: 'k1' })}.${part({})}.sig`)).toEqual({ alg: 'RS256', kid: 'k1' });
    for (const bad of [
      'not-a-jwt',
      'gAAAAABfernet',
      'a.b.c',
      `${part({ alg: 'none' })}.${part(['an', 'array'])}.sig`,
      `${part({ alg: 'none' })}.!!!.sig`,
    ]) {
      expect(jwtClaims(bad), bad).toBeUndefined();
    }
  });

  it('reads aud as a list whether one audience or several', () => {
    expect(audiences({ aud: 'a' })).toEqual(['a']);
    expect(audiences({ aud: ['a', 'b'] })).toEqual(['a', 'b']);
    expect(audiences({})).toEqual([]);
  });
});

type Kind = 'RS256' | 'PS256' | 'ES256' | 'ES384';

function keyFor(alg: Kind): { privateKey: KeyObject; jwk: Record<string, unknown> } {
  const { privateKey, publicKey } = alg.startsWith('ES')
    ? generateKeyPairSync('ec', { namedCurve: alg === 'ES256' ? 'P-256' : 'P-384' })
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg, use: 'sig' } };
}

/** A JWT signed with node:crypto directly, independent of the code under test. */
function signed(alg: Kind, privateKey: KeyObject, claims: Record<string, unknown> = { sub: 'x' }): string {
  const input = `${part({ alg, kid: 'k1' })}.${part(claims)}`;
  const hash = alg === 'ES384' ? 'sha384' : 'sha256';
  const key =
    alg === 'PS256'
      ? { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
      : alg.startsWith('ES')
        ? { key: privateKey, dsaEncoding: 'ieee-p1363' as const }
        : privateKey;
  return `${input}.${sign(hash, Buffer.from(input), key).toString('base64url')}`;
}

describe('verifying a signature', () => {
  it.each(['RS256', 'PS256', 'ES256', 'ES384'] as const)(
    'accepts a %s signature made with the published key',
    async (alg) => {
      const { privateKey, jwk } = keyFor(alg);
      expect(await verifySignature(signed(alg, privateKey), jwk, [alg])).toEqual({ valid: true });
    },
  );

  it('refuses a signature another key made, or claims changed after signing', async () => {
    const { jwk } = keyFor('RS256');
    const other = keyFor('RS256');
    expect(await verifySignature(signed('RS256', other.privateKey), jwk, ['RS256'])).toMatchObject({
      valid: false,
      why: 'bad-signature',
    });
    const { privateKey, jwk: own } = keyFor('ES256');
    const [head, , signature] = signed('ES256', privateKey).split('.');
    expect(await verifySignature(`${head}.${part({ sub: 'admin' })}.${signature}`, own, ['ES256'])).toMatchObject({
      valid: false,
      why: 'bad-signature',
    });
  });

  it('says a key cannot judge a token of another algorithm', async () => {
    const ec = keyFor('ES256');
    const rsa = keyFor('RS256');
    expect(await verifySignature(signed('RS256', rsa.privateKey), ec.jwk, ['RS256'])).toMatchObject({
      valid: false,
      why: 'unusable',
    });
    expect(await verifySignature(signed('RS256', rsa.privateKey), rsa.jwk, ['ES256'])).toMatchObject({
      valid: false,
      why: 'unusable',
    });
  });
});
