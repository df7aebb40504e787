/**
 * Verifies a projected service-account token the way the DNS provider's token service will:
 * signature against the published key set (by `kid`), `iss` byte for byte, `aud`, expiry.
 */
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { constants, createPublicKey, verify, type JsonWebKey } from 'node:crypto';

export interface TokenVerdict {
  /** Problems that make the token service refuse it. */
  failures: string[];
  /** Doubts that do not by themselves (a missing in-cluster audience). */
  warnings: string[];
  /** Safe facts for `details` (never the token). */
  facts: { kid?: string; alg?: string; iss?: string; aud?: string[]; sub?: string; expiresAt?: string };
}

const HASHES: Record<string, { hash: string; kind: 'rsa' | 'pss' | 'ec' }> = {
  RS256: { hash: 'sha256', kind: 'rsa' },
  RS384: { hash: 'sha384', kind: 'rsa' },
  RS512: { hash: 'sha512', kind: 'rsa' },
  PS256: { hash: 'sha256', kind: 'pss' },
  PS384: { hash: 'sha384', kind: 'pss' },
  PS512: { hash: 'sha512', kind: 'pss' },
  ES256: { hash: 'sha256', kind: 'ec' },
  ES384: { hash: 'sha384', kind: 'ec' },
  ES512: { hash: 'sha512', kind: 'ec' },
};

/** A part of a JWT through jose's decoders (which check the shape), or undefined when it is no JWT. */
function decoded<T>(decode: () => T): T | undefined {
  try {
    return decode();
  } catch {
    return undefined;
  }
}

export function verifyServiceAccountToken(
  token: string,
  keySet: { keys?: unknown[] },
  expect: { issuer: string; audiences: string[]; optionalAudiences?: string[]; now?: number },
): TokenVerdict {
  const verdict: TokenVerdict = { failures: [], warnings: [], facts: {} };
  const parts = token.trim().split('.');
  const header = decoded(() => decodeProtectedHeader(token.trim()) as Record<string, unknown>);
  const claims = decoded(() => decodeJwt(token.trim()) as Record<string, unknown>);
  if (parts.length !== 3 || !header || !claims) {
    verdict.failures.push('it is not a JWT (three base64url parts with JSON header and claims)');
    return verdict;
  }
  const alg = typeof header.alg === 'string' ? header.alg : undefined;
  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.map(String) : [];
  const exp = typeof claims.exp === 'number' ? claims.exp : undefined;
  verdict.facts = {
    kid,
    alg,
    iss: typeof claims.iss === 'string' ? claims.iss : undefined,
    aud,
    sub: typeof claims.sub === 'string' ? claims.sub : undefined,
    expiresAt: exp ? new Date(exp * 1000).toISOString() : undefined,
  };

  const keys = (keySet.keys ?? []) as (JsonWebKey & { kid?: string; alg?: string })[];
  const key = keys.find((k) => k.kid === kid);
  const algorithm = alg ? HASHES[alg] : undefined;
  if (!algorithm) verdict.failures.push(`its algorithm "${alg ?? '(none)'}" is not a signing algorithm the token service accepts`);
  else if (!key) verdict.failures.push(`its key id "${kid ?? '(none)'}" is not in the published key set (${keys.map((k) => k.kid).join(', ') || 'empty'}): the cluster signs with a key it does not publish`);
  else {
    try {
      const publicKey = createPublicKey({ key, format: 'jwk' });
      const signature = Buffer.from(parts[2], 'base64url');
      const options =
        algorithm.kind === 'ec'
          ? { key: publicKey, dsaEncoding: 'ieee-p1363' as const }
          : algorithm.kind === 'pss'
            ? { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(algorithm.hash.slice(3)) / 8 }
            : publicKey;
      const valid = verify(algorithm.hash, Buffer.from(`${parts[0]}.${parts[1]}`), options, signature);
      if (!valid) verdict.failures.push(`its signature does not verify with published key "${kid}"`);
    } catch (error) {
      verdict.failures.push(`published key "${kid}" cannot verify it: ${(error as Error).message}`);
    }
  }

  if (verdict.facts.iss !== expect.issuer) {
    verdict.failures.push(`its iss "${verdict.facts.iss ?? '(none)'}" is not the issuer URL ${expect.issuer} (set --service-account-issuer to it, first)`);
  }
  const missing = expect.audiences.filter((a) => !aud.includes(a));
  if (missing.length) verdict.failures.push(`its aud lacks ${missing.join(', ')} (add to --api-audiences)`);
  const missingOptional = (expect.optionalAudiences ?? []).filter((a) => !aud.includes(a));
  if (missingOptional.length) verdict.warnings.push(`its aud lacks the in-cluster audience ${missingOptional.join(', ')}`);
  const now = (expect.now ?? Date.now()) / 1000;
  if (exp !== undefined && exp < now) verdict.failures.push(`it expired at ${verdict.facts.expiresAt}`);
  return verdict;
}
