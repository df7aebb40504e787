/**
 * Cryptography below what the CA/Browser Forum's Baseline Requirements and Kubernetes (Go's
 * crypto/x509) accept, named as such: an RSA key under 2048 bits, a DSA key, an elliptic curve other
 * than P-256, P-384 and P-521, a signature made with MD5 or SHA-1 (or SHA-224). Browsers, Go clients
 * (kubectl, cert-manager, the OpenStack services' health checks) and OpenSSL 3 at its default security
 * level refuse such a certificate, whatever CA signed it.
 *
 * The signature of a self-signed root is not checked (nobody verifies a trust anchor's signature on
 * itself), its key is.
 */
import type { X509Certificate } from 'node:crypto';
import { commonName } from './pem.js';
import type { CertCheck } from './checks.js';

export const MIN_RSA_BITS = 2048;
const GOOD_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1', 'P-256', 'P-384', 'P-521']);

/** Signature algorithms by OID: their name, and why they are refused when they are. */
const SIGNATURES: Record<string, { name: string; weak?: string }> = {
  '1.2.840.113549.1.1.2': { name: 'md2WithRSAEncryption', weak: 'MD2' },
  '1.2.840.113549.1.1.3': { name: 'md4WithRSAEncryption', weak: 'MD4' },
  '1.2.840.113549.1.1.4': { name: 'md5WithRSAEncryption', weak: 'MD5' },
  '1.2.840.113549.1.1.5': { name: 'sha1WithRSAEncryption', weak: 'SHA-1' },
  '1.3.14.3.2.29': { name: 'sha1WithRSASignature', weak: 'SHA-1' },
  '1.2.840.10045.4.1': { name: 'ecdsa-with-SHA1', weak: 'SHA-1' },
  '1.2.840.10040.4.3': { name: 'dsa-with-SHA1', weak: 'SHA-1' },
  '1.2.840.113549.1.1.14': { name: 'sha224WithRSAEncryption', weak: 'SHA-224' },
  '1.2.840.10045.4.3.1': { name: 'ecdsa-with-SHA224', weak: 'SHA-224' },
  '1.2.840.113549.1.1.11': { name: 'sha256WithRSAEncryption' },
  '1.2.840.113549.1.1.12': { name: 'sha384WithRSAEncryption' },
  '1.2.840.113549.1.1.13': { name: 'sha512WithRSAEncryption' },
  '1.2.840.113549.1.1.10': { name: 'RSASSA-PSS' },
  '1.2.840.10045.4.3.2': { name: 'ecdsa-with-SHA256' },
  '1.2.840.10045.4.3.3': { name: 'ecdsa-with-SHA384' },
  '1.2.840.10045.4.3.4': { name: 'ecdsa-with-SHA512' },
  '1.3.101.112': { name: 'Ed25519' },
  '1.3.101.113': { name: 'Ed448' },
};

/** The DER elements directly inside `buf` (tag and content). */
function children(buf: Buffer): { tag: number; content: Buffer }[] {
  const out: { tag: number; content: Buffer }[] = [];
  let at = 0;
  while (at < buf.length) {
    const tag = buf[at++];
    let length = buf[at++];
    if (length & 0x80) {
      const n = length & 0x7f;
      length = 0;
      for (let i = 0; i < n; i++) length = length * 256 + buf[at++];
    }
    out.push({ tag, content: buf.subarray(at, at + length) });
    at += length;
  }
  return out;
}

function oidText(bytes: Buffer): string {
  const parts = [Math.floor(bytes[0] / 40), bytes[0] % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

/** The OID of the certificate's signature algorithm (Certificate ::= SEQUENCE { tbs, signatureAlgorithm, signature }). */
export function signatureOid(der: Buffer): string | undefined {
  try {
    const algorithm = children(children(der)[0].content)[1];
    const oid = children(algorithm.content)[0];
    return oid?.tag === 0x06 ? oidText(oid.content) : undefined;
  } catch {
    return undefined;
  }
}

export interface Weakness {
  /** What is weak, for the message: "an RSA 1024-bit key", "a SHA-1 signature (sha1WithRSAEncryption)". */
  what: string;
  /** The fix. */
  fix: string;
}

function selfSigned(cert: X509Certificate): boolean {
  try {
    return cert.subject === cert.issuer && cert.verify(cert.publicKey);
  } catch {
    return false;
  }
}

/** What makes one certificate too weak, by the rules above (none when it is fine). */
export function weaknessesOf(cert: X509Certificate): Weakness[] {
  const found: Weakness[] = [];
  const key = cert.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  if (
    (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') &&
    (details.modulusLength ?? 0) < MIN_RSA_BITS
  ) {
    found.push({
      what: `an RSA ${details.modulusLength ?? '?'}-bit key, below the ${MIN_RSA_BITS} bits the CA/Browser Forum and Kubernetes require`,
      fix: `issue it again with an RSA key of at least ${MIN_RSA_BITS} bits (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:${MIN_RSA_BITS}) or an ECDSA P-256 key`,
    });
  } else if (key.asymmetricKeyType === 'dsa') {
    found.push({
      what: 'a DSA key, which TLS clients no longer accept',
      fix: 'issue it again with an RSA (2048+ bits) or ECDSA P-256 key',
    });
  } else if (key.asymmetricKeyType === 'ec' && details.namedCurve && !GOOD_CURVES.has(details.namedCurve)) {
    found.push({
      what: `an elliptic-curve key on ${details.namedCurve}, a curve the CA/Browser Forum and Go's TLS do not accept (only P-256, P-384, P-521)`,
      fix: 'issue it again with a P-256 or P-384 key',
    });
  }
  const oid = signatureOid(cert.raw);
  const signature = oid ? SIGNATURES[oid] : undefined;
  if (signature?.weak && !selfSigned(cert)) {
    found.push({
      what: `a ${signature.weak} signature (${signature.name}), which browsers, Kubernetes (Go) and OpenSSL 3 refuse whoever signed it`,
      fix: 'have it signed again with SHA-256 or stronger (its CA must sign with sha256WithRSAEncryption or ecdsa-with-SHA256)',
    });
  }
  return found;
}

export interface ChainWeakness extends Weakness {
  /** Which certificate: "the certificate", "the intermediate X", "the root X". */
  who: string;
}

/** The weaknesses of a chain (leaf first), each naming the certificate it is about. */
export function chainWeaknesses(chain: X509Certificate[]): ChainWeakness[] {
  return chain.flatMap((cert, i) => {
    const name = commonName(cert.subject) || cert.subject;
    const who =
      i === 0 ? `the certificate "${name}"` : selfSigned(cert) ? `the root "${name}"` : `the intermediate "${name}"`;
    return weaknessesOf(cert).map((w) => ({ ...w, who }));
  });
}

/** One sentence for a message: `the certificate "x" has an RSA 1024-bit key, ...; the root "y" has ...`. */
export function describeWeaknesses(found: ChainWeakness[]): string {
  return found.map((w) => `${w.who} has ${w.what}`).join('; ');
}

/** OpenSSL's verify errors that mean weak cryptography, not an unknown CA. */
export const WEAK_CRYPTO_ERRORS = new Set(['CA_MD_TOO_WEAK', 'EE_KEY_TOO_SMALL', 'CA_KEY_TOO_SMALL']);

/** The `strength` check of a certificate input (a supplied wildcard, a CA issuer, a CA bundle): every certificate of it. */
export function checkStrength(chain: { x509: X509Certificate }[], source: string): CertCheck {
  const found = chainWeaknesses(chain.map((c) => c.x509));
  if (found.length === 0) {
    const leaf = chain[0]?.x509;
    return {
      name: 'strength',
      status: 'ok',
      message: `${source}: key sizes and signature algorithms are accepted${leaf ? ` (${keyWords(leaf)})` : ''}.`,
    };
  }
  const fixes = [...new Set(found.map((w) => w.fix))];
  return {
    name: 'strength',
    status: 'fail',
    message: `${source}: ${describeWeaknesses(found)}.`,
    advice: `${fixes.map((f) => f.charAt(0).toUpperCase() + f.slice(1)).join('; ')}.`,
  };
}

/** "RSA 2048-bit key, sha256WithRSAEncryption". */
function keyWords(cert: X509Certificate): string {
  const key = cert.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const size = details.modulusLength
    ? ` ${details.modulusLength}-bit`
    : details.namedCurve
      ? ` ${details.namedCurve}`
      : '';
  const oid = signatureOid(cert.raw);
  return `${(key.asymmetricKeyType ?? 'unknown').toUpperCase()}${size} key, ${oid ? (SIGNATURES[oid]?.name ?? oid) : 'unknown'} signature`;
}
