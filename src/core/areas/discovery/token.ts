/**
 * Verifies a projected service-account token the way the DNS provider's token service will:
 * signature against the published key set (by `kid`), `iss` byte for byte, `aud`, expiry.
 */
import type { JWK } from 'jose';
import { audiences, jwtClaims, jwtHeader, stringClaim, verifySignature } from '../../jwt/token.js';
import { joinCapped } from '../../bounded.js';
import { TOKEN_FAILURE } from './messages/document.js';

export interface TokenVerdict {
  /** Problems that make the token service refuse it. */
  failures: string[];
  /** Doubts that do not by themselves (a missing in-cluster audience). */
  warnings: string[];
  /** Safe facts for `details` (never the token). */
  facts: { kid?: string; alg?: string; iss?: string; aud?: string[]; sub?: string; expiresAt?: string };
}

/** The signing algorithms the token service accepts. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

export async function verifyServiceAccountToken(
  token: string,
  keySet: { keys?: unknown[] },
  expect: { issuer: string; audiences: string[]; optionalAudiences?: string[]; now?: number },
): Promise<TokenVerdict> {
  const verdict: TokenVerdict = { failures: [], warnings: [], facts: {} };
  const header = jwtHeader(token);
  const claims = jwtClaims(token);
  if (!header || !claims) {
    verdict.failures.push(TOKEN_FAILURE.notJwt);
    return verdict;
  }
  const alg = stringClaim(header, 'alg');
  const kid = stringClaim(header, 'kid');
  const aud = audiences(claims);
  const exp = typeof claims.exp === 'number' ? claims.exp : undefined;
  verdict.facts = {
    kid,
    alg,
    iss: stringClaim(claims, 'iss'),
    aud,
    sub: stringClaim(claims, 'sub'),
    expiresAt: exp ? new Date(exp * 1000).toISOString() : undefined,
  };

  // The published keys go to jose as they are: it checks the key it is given when it verifies.
  const keys = (keySet.keys ?? []) as (JWK & { kid?: string })[];
  const key = keys.find((k) => k.kid === kid);
  if (!alg || !ALGORITHMS.includes(alg)) verdict.failures.push(TOKEN_FAILURE.algorithm(alg));
  else if (!key) verdict.failures.push(TOKEN_FAILURE.unknownKey(kid, joinCapped(keys.map((k) => String(k.kid)))));
  else {
    const signature = await verifySignature(token, key, [alg]);
    if (!signature.valid) {
      verdict.failures.push(
        signature.why === 'bad-signature'
          ? TOKEN_FAILURE.badSignature(kid)
          : TOKEN_FAILURE.keyCannotVerify(kid, signature.message),
      );
    }
  }

  if (verdict.facts.iss !== expect.issuer) {
    verdict.failures.push(TOKEN_FAILURE.wrongIssuer(verdict.facts.iss, expect.issuer));
  }
  const missing = expect.audiences.filter((a) => !aud.includes(a));
  if (missing.length) verdict.failures.push(TOKEN_FAILURE.missingAudiences(missing));
  const missingOptional = (expect.optionalAudiences ?? []).filter((a) => !aud.includes(a));
  if (missingOptional.length) verdict.warnings.push(TOKEN_FAILURE.missingInClusterAudience(missingOptional));
  const now = (expect.now ?? Date.now()) / 1000;
  if (exp !== undefined && exp < now) verdict.failures.push(TOKEN_FAILURE.expired(verdict.facts.expiresAt));
  return verdict;
}
