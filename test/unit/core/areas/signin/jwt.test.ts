import { describe, expect, it } from 'vitest';
import { decodeJwt, tokenFacts } from '../../../../../src/core/areas/signin/jwt.js';

const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('decodeJwt (through jose)', () => {
  it('gives the claims of a JWT and nothing for what is not one', () => {
    expect(decodeJwt(`${part({ alg: 'none' })}.${part({ sub: 'alice', exp: 1 })}.sig`)).toMatchObject({ sub: 'alice', exp: 1 });
    expect(decodeJwt('not-a-jwt')).toBeUndefined();
    expect(decodeJwt(`${part({ alg: 'none' })}.${part(['an', 'array'])}.sig`)).toBeUndefined();
    expect(decodeJwt(`${part({ alg: 'none' })}.!!!.sig`)).toBeUndefined();
  });

  it('tokenFacts says who and for how long, never the token', () => {
    const token = `${part({ alg: 'RS256' })}.${part({ iss: 'https://idp', sub: 's', preferred_username: 'alice', exp: 1_000 })}.sig`;
    const facts = tokenFacts(token, 900_000);
    expect(facts).toMatchObject({ issuer: 'https://idp', subject: 's', username: 'alice', secondsLeft: 100 });
    expect(JSON.stringify(facts)).not.toContain(token);
  });
});
