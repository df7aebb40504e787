/**
 * Node's bundled public roots as certificates, parsed once per process: they are the same for every
 * run, and parsing about 140 of them costs tens of milliseconds. The one place they are parsed.
 */
import { X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { certificateBlocks } from './pem.js';

let bundled: readonly X509Certificate[] | undefined;

export function bundledRoots(): readonly X509Certificate[] {
  bundled ??= rootCertificates.flatMap(certificatesIn);
  return bundled;
}

/** The certificates of a PEM text; a damaged block is left out (a trust store with one trusts nothing more). */
export function certificatesIn(pem: string): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const block of certificateBlocks(pem)) {
    try {
      out.push(new X509Certificate(block));
    } catch {
      // Not a certificate this store can trust.
    }
  }
  return out;
}
