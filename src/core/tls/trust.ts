/**
 * The question "does this chain reach a root without help?", against the anchors of the run's trust
 * store (net/trust.ts: Node's bundled roots, NODE_EXTRA_CA_CERTS and the CA file given).
 */
import type { X509Certificate } from 'node:crypto';

export interface TrustAnchors {
  certificates: readonly X509Certificate[];
  /** Says which stores were used, for messages. */
  description: string;
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
