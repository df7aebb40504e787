/**
 * Chain order: each certificate must be issued and signed by the one after it (certificate,
 * intermediate(s), root — or issuer, intermediate(s), root for a CA issuer).
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { ParsedCertificate } from './pem.js';

/**
 * True when `child` names `parent` as its issuer and carries a valid signature by its key.
 * (Not X509Certificate.checkIssued: it also refuses a parent without keyCertSign, which is the
 * CA check's business, and would hide a self-signed leaf.)
 */
export function isIssuedBy(child: ParsedCertificate, parent: ParsedCertificate): boolean {
  try {
    return child.x509.issuer === parent.x509.subject && child.x509.verify(parent.x509.publicKey);
  } catch {
    return false;
  }
}

export function isSelfSigned(cert: ParsedCertificate): boolean {
  return isIssuedBy(cert, cert);
}

export function sameKey(cert: ParsedCertificate, key: KeyObject): boolean {
  const spki = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });
  try {
    return spki(cert.x509.publicKey).equals(spki(key.type === 'private' ? createPublicKey(key) : key));
  } catch {
    return false;
  }
}

export const label = (c: ParsedCertificate) => `block ${c.index} (${c.name})`;

export interface OrderResult {
  /** The given order is correct. */
  inOrder: boolean;
  /** Pairs that break the order, as readable sentences. */
  problems: string[];
  /** The correct order when one could be computed (duplicates dropped). */
  fixed?: ParsedCertificate[];
  duplicates: ParsedCertificate[];
}

/**
 * Checks the order and computes the right one. The chain starts at the certificate of `key` when
 * one matches, else at the only certificate that issued none of the others.
 */
export function analyseOrder(certs: ParsedCertificate[], key?: KeyObject): OrderResult {
  const seen = new Map<string, ParsedCertificate>();
  const duplicates: ParsedCertificate[] = [];
  const unique: ParsedCertificate[] = [];
  for (const c of certs) {
    const fp = c.x509.fingerprint256;
    if (seen.has(fp)) duplicates.push(c);
    else {
      seen.set(fp, c);
      unique.push(c);
    }
  }
  const problems: string[] = duplicates.map((d) => `${label(d)} repeats ${label(seen.get(d.x509.fingerprint256)!)}.`);
  for (let i = 0; i + 1 < certs.length; i++) {
    const [child, parent] = [certs[i], certs[i + 1]];
    if (child.x509.fingerprint256 === parent.x509.fingerprint256) continue;
    if (!isIssuedBy(child, parent))
      problems.push(`${label(child)} is followed by ${label(parent)}, which did not issue it.`);
  }
  if (problems.length === 0) return { inOrder: true, problems, duplicates };
  return { inOrder: false, problems, fixed: computeOrder(unique, key), duplicates };
}

function computeOrder(certs: ParsedCertificate[], key?: KeyObject): ParsedCertificate[] | undefined {
  const issuedOthers = (c: ParsedCertificate) => certs.some((o) => o !== c && isIssuedBy(o, c));
  const ofKey = key ? certs.filter((c) => sameKey(c, key)) : [];
  const starts = ofKey.length ? ofKey : certs.filter((c) => !issuedOthers(c));
  if (starts.length !== 1) return undefined;
  const path = [starts[0]];
  for (;;) {
    const current = path[path.length - 1];
    const next = certs.find((c) => !path.includes(c) && isIssuedBy(current, c));
    if (!next) break;
    path.push(next);
  }
  return path.length === certs.length ? path : undefined;
}
