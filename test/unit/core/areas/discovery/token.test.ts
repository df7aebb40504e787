import { describe, expect, it } from 'vitest';
import { verifyServiceAccountToken } from '../../../../../src/core/areas/discovery/token.js';
import { createSigningKey, serviceAccountClaims, signJwt } from '../../../../servers/jwt.js';

const ISSUER = 'https://oidc.example.com/c1';
const claims = (extra: Record<string, unknown> = {}) => ({
  ...serviceAccountClaims({
    issuer: ISSUER,
    audiences: [ISSUER, 'sts.amazonaws.com'],
    namespace: 'cert-manager',
    serviceAccount: 'cert-manager-route53',
  }),
  ...extra,
});
const expect_ = {
  issuer: ISSUER,
  audiences: [ISSUER, 'sts.amazonaws.com'],
  optionalAudiences: ['https://kubernetes.default.svc.cluster.local'],
};

describe('a service-account token as the token service judges it', () => {
  it.each(['RS256', 'ES256'] as const)(
    '%s: verifies with the published key, the in-cluster audience missing is only a warning',
    async (alg) => {
      const key = createSigningKey(alg);
      const verdict = await verifyServiceAccountToken(signJwt(claims(), key), { keys: [key.jwk] }, expect_);
      expect(verdict.failures).toEqual([]);
      expect(verdict.warnings).toHaveLength(1);
      expect(verdict.facts).toMatchObject({ kid: key.kid, alg, iss: ISSUER });
    },
  );

  it('names each reason for a refusal', async () => {
    const key = createSigningKey('RS256');
    const other = createSigningKey('RS256', key.kid);
    const check = async (token: string, keys = [key.jwk]) =>
      (await verifyServiceAccountToken(token, { keys }, expect_)).failures.join('; ');
    expect(await check(signJwt(claims(), other))).toContain('signature does not verify');
    expect(await check(signJwt(claims(), key), [createSigningKey('RS256').jwk])).toContain(
      'is not in the published key set',
    );
    expect(await check(signJwt(claims(), key, { alg: 'HS256' }))).toContain('not a signing algorithm');
    expect(await check(signJwt(claims({ iss: `${ISSUER}/` }), key))).toContain('is not the issuer URL');
    expect(await check(signJwt(claims({ aud: [ISSUER] }), key))).toContain('aud lacks sts.amazonaws.com');
    expect(await check(signJwt(claims({ exp: 1 }), key))).toContain('expired');
    expect(await check('not-a-jwt')).toContain('not a JWT');
  });
});
