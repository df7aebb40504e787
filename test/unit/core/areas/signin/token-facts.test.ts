import { describe, expect, it } from 'vitest';
import { describeFacts, formatLeft, tokenFacts } from '../../../../../src/core/areas/signin/token-facts.js';
import { fakeJwt } from '../../../../servers/identity.js';

const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('JWT facts (decoded, not verified)', () => {
  it('reads issuer, audience, user and time left', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const token = fakeJwt({
      iss: 'https://kc/realms/r',
      aud: ['a', 'b'],
      sub: 's',
      preferred_username: 'alice',
      exp: now / 1000 + 299,
    });
    const facts = tokenFacts(token, now)!;
    expect(facts).toEqual({
      issuer: 'https://kc/realms/r',
      audience: ['a', 'b'],
      subject: 's',
      username: 'alice',
      expiresAt: '2026-01-01T00:04:59.000Z',
      secondsLeft: 299,
    });
    expect(describeFacts(facts)).toBe(
      'iss https://kc/realms/r, aud a,b, user alice, expires 2026-01-01T00:04:59.000Z (4 min 59 s left)',
    );
    expect(describeFacts(facts)).not.toContain(token);
  });

  it('says when a token has expired, and ignores what is not a JWT', () => {
    expect(formatLeft(-10)).toBe('expired 10 s ago');
    expect(formatLeft(7260)).toBe('2 h 1 min left');
    expect(tokenFacts('not-a-jwt', 0)).toBeUndefined();
  });

  it('tokenFacts says who and for how long, never the token', () => {
    const token = `${part({ alg: 'RS256' })}.${part({ iss: 'https://idp', sub: 's', preferred_username: 'alice', exp: 1_000 })}.sig`;
    const facts = tokenFacts(token, 900_000);
    expect(facts).toMatchObject({ issuer: 'https://idp', subject: 's', username: 'alice', secondsLeft: 100 });
    expect(JSON.stringify(facts)).not.toContain(token);
  });
});
