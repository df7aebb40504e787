/** Signing keys and RS256/ES256 JWTs made at test time (for the OIDC issuer and the kube API emulation). */
import { createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

export interface SigningKey {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: KeyObject;
  /** The public JWK as Kubernetes publishes it: `use: sig`, `kty`, `kid`, `alg`. */
  jwk: Record<string, unknown>;
}

export function createSigningKey(alg: 'RS256' | 'ES256' = 'RS256', kid = randomBytes(8).toString('hex')): SigningKey {
  const { privateKey, publicKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...publicKey.export({ format: 'jwk' }), use: 'sig', kid, alg };
  return { kid, alg, privateKey, jwk };
}

const b64 = (value: Buffer | string) => Buffer.from(value).toString('base64url');

export function signJwt(
  claims: Record<string, unknown>,
  key: SigningKey,
  header: Record<string, unknown> = {},
): string {
  const head = b64(JSON.stringify({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header }));
  const body = b64(JSON.stringify(claims));
  const signer = createSign('SHA256');
  signer.update(`${head}.${body}`);
  const signature =
    key.alg === 'RS256' ? signer.sign(key.privateKey) : signer.sign({ key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  return `${head}.${body}.${b64(signature)}`;
}

/** Claims of a projected service-account token, as the API server issues them. */
export function serviceAccountClaims(opts: {
  issuer: string;
  audiences: string[];
  namespace: string;
  serviceAccount: string;
  lifetimeSeconds?: number;
}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: opts.issuer,
    aud: opts.audiences,
    sub: `system:serviceaccount:${opts.namespace}:${opts.serviceAccount}`,
    iat: now,
    nbf: now,
    exp: now + (opts.lifetimeSeconds ?? 600),
    'kubernetes.io': {
      namespace: opts.namespace,
      serviceaccount: { name: opts.serviceAccount, uid: randomBytes(8).toString('hex') },
    },
  };
}
