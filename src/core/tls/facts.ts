/** A certificate as a typed fact of a check result: where it was read, what it names, when it expires. */
import type { X509Certificate } from 'node:crypto';
import type { CertificateFact } from '../doctor/types.js';
import { altNames, commonName } from './pem.js';

/** `source`: a file's full path, `host:port`, or `namespace/secret` (unique in a run). */
export function certificateFact(source: string, cert: X509Certificate): CertificateFact {
  const subject = commonName(cert.subject) || altNames(cert).all[0] || '';
  return { source, subject, notAfter: new Date(cert.validTo).toISOString() };
}
