/**
 * The roots this machine trusts, for the question "does this chain reach a root without help?":
 * Node's bundled roots, the file in NODE_EXTRA_CA_CERTS, and a CA file given to the command.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { certificateBlocks } from './pem.js';

export interface TrustAnchors {
  certificates: X509Certificate[];
  /** Says which stores were used, for messages. */
  description: string;
}

let bundled: X509Certificate[] | undefined;

function certificatesIn(pem: string): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const block of certificateBlocks(pem)) {
    try {
      out.push(new X509Certificate(block));
    } catch {
      // A damaged block in a trust store is not this check's business: it simply trusts nothing.
    }
  }
  return out;
}

function fileCertificates(path: string | undefined): X509Certificate[] {
  if (!path) return [];
  try {
    return certificatesIn(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

export function trustAnchors(caFile?: string): TrustAnchors {
  bundled ??= rootCertificates.flatMap(certificatesIn);
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  const stores = ["Node's bundled roots", ...(extra ? [`NODE_EXTRA_CA_CERTS (${extra})`] : []), ...(caFile ? [caFile] : [])];
  return {
    certificates: [...bundled, ...fileCertificates(extra), ...fileCertificates(caFile)],
    description: stores.join(', '),
  };
}

/** The anchor that issued and signed `cert`, if any. */
export function trustedIssuerOf(cert: X509Certificate, anchors: TrustAnchors): X509Certificate | undefined {
  return anchors.certificates.find((anchor) => {
    if (anchor.subject !== cert.issuer) return false;
    try {
      return cert.verify(anchor.publicKey);
    } catch {
      return false;
    }
  });
}
