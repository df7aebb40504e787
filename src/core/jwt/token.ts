/**
 * JSON Web Tokens, through jose, for every part of cloudgate that looks into one (the sign-in chain,
 * the service-account tokens of keyless DNS): the header and claims read without verifying, to say
 * what a token claims, and a signature verified against a published key. The token itself is never
 * returned or printed.
 */
// jose's subpaths, not its index: a bundle then carries only the parts used.
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { decodeJwt } from 'jose/jwt/decode';
import type { JWK } from 'jose';
import type { SignatureCheck } from './signature.js';

export type { SignatureCheck };

export type Claims = Record<string, unknown>;

/** The claims of a JWT (jose checks its shape), or undefined when it is not one. Never verified. */
export function jwtClaims(token: string): Claims | undefined {
  try {
    return decodeJwt(token.trim());
  } catch {
    return undefined;
  }
}

/** The protected header of a JWT (`alg`, `kid`), or undefined when it is not one. */
export function jwtHeader(token: string): Record<string, unknown> | undefined {
  try {
    return decodeProtectedHeader(token.trim());
  } catch {
    return undefined;
  }
}

/** A string claim, undefined when absent or of another type. */
export function stringClaim(claims: Claims, name: string): string | undefined {
  return typeof claims[name] === 'string' ? claims[name] : undefined;
}

/** `aud` as a list: a JWT may carry one audience as a string or several as an array. */
export function audiences(claims: Claims): string[] {
  const aud = claims.aud;
  return typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.map(String) : [];
}

/**
 * Verifies the signature of a compact JWT with one public key, allowing only `algorithms`. jose's
 * verification is loaded on the first call: most runs verify no token.
 */
export async function verifySignature(token: string, key: JWK, algorithms: string[]): Promise<SignatureCheck> {
  const { checkSignature } = await import('./signature.js');
  return checkSignature(token.trim(), key, algorithms);
}
