/** A JWT's signature checked with jose (loaded lazily by token.ts). */
import type { JWK } from 'jose';
import { JWSSignatureVerificationFailed } from 'jose/errors';
import { createLocalJWKSet } from 'jose/jwks/local';
import { compactVerify } from 'jose/jws/compact/verify';

/** Whether a signature verifies: `bad-signature` when the key does not match it, `unusable` when the key cannot judge it. */
export type SignatureCheck = { valid: true } | { valid: false; why: 'bad-signature' | 'unusable'; message: string };

export async function checkSignature(token: string, key: JWK, algorithms: string[]): Promise<SignatureCheck> {
  try {
    await compactVerify(token, createLocalJWKSet({ keys: [key] }), { algorithms });
    return { valid: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      valid: false,
      why: error instanceof JWSSignatureVerificationFailed ? 'bad-signature' : 'unusable',
      message,
    };
  }
}
