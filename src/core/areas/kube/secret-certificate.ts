/**
 * What a TLS secret really holds, read as the ingress controller will serve it: the leaf certificate
 * of tls.crt (subject, names, notAfter) and whether tls.key is present and belongs to it. The key is
 * registered as a secret before anything else touches it and never leaves this module.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { CertificateFact } from '../../doctor/types.js';
import type { CmObject } from '../../kube/objects.js';
import { registerSecret } from '../../secrets.js';
import { asRecord, textOf } from '../../records.js';
import { altNames, certificateName, parseCertificates, PemError } from '../../tls/pem.js';
import type { X509Certificate } from 'node:crypto';
import { SECRET } from './messages/certificates.js';

export type KeyState = 'matches' | 'missing' | 'mismatch' | 'unreadable';

export interface SecretCertificate {
  /** `namespace/name`. */
  source: string;
  type?: string;
  /** Why no leaf could be read (no tls.crt, not PEM). */
  problem?: string;
  leaf?: { subject: string; notAfter: string; names: string[]; issuer: string; x509: X509Certificate };
  /** tls.crt as stored (certificates only: never the key), for the chain checks of a supplied wildcard. */
  certPem?: string;
  key: KeyState;
  /** cert-manager's annotations on the secret: which issuer issued it, for which Certificate. */
  issuerName?: string;
  certificateName?: string;
}

const decode = (data: Record<string, unknown> | undefined, key: string) => {
  const value = textOf(data?.[key]);
  return value ? Buffer.from(value, 'base64').toString('utf8') : '';
};

export function readSecretCertificate(secret: CmObject): SecretCertificate {
  const data = asRecord(secret.data);
  registerSecret(textOf(data?.['tls.key']));
  const keyPem = decode(data, 'tls.key');
  registerSecret(keyPem);
  const certPem = decode(data, 'tls.crt');
  const annotations = secret.metadata?.annotations ?? {};
  const base = {
    source: `${secret.metadata?.namespace ?? '?'}/${secret.metadata?.name ?? '?'}`,
    type: typeof secret.type === 'string' ? secret.type : undefined,
    issuerName: annotations['cert-manager.io/issuer-name'],
    certificateName: annotations['cert-manager.io/certificate-name'],
  };
  if (!certPem.trim()) return { ...base, problem: SECRET.noTlsCrt, key: keyPem.trim() ? 'unreadable' : 'missing' };
  let x509: X509Certificate;
  try {
    x509 = parseCertificates(certPem, `${base.source} tls.crt`).certificates[0].x509;
  } catch (error) {
    if (!(error instanceof PemError)) throw error;
    return {
      ...base,
      problem: SECRET.notPem(error.message),
      key: keyPem.trim() ? 'unreadable' : 'missing',
    };
  }
  const leaf = {
    subject: certificateName(x509),
    notAfter: new Date(x509.validTo).toISOString(),
    names: altNames(x509).dns,
    issuer: x509.issuer.replace(/\n/g, ', '),
    x509,
  };
  return { ...base, leaf, certPem, key: keyState(keyPem, x509) };
}

function keyState(keyPem: string, x509: X509Certificate): KeyState {
  if (!keyPem.trim()) return 'missing';
  try {
    const fromKey = createPublicKey(createPrivateKey(keyPem)).export({ type: 'spki', format: 'der' });
    const fromCert = x509.publicKey.export({ type: 'spki', format: 'der' });
    return fromKey.equals(fromCert) ? 'matches' : 'mismatch';
  } catch {
    return 'unreadable';
  }
}

/** The fact the exporter makes an expiry series of. */
export function certificateFact(read: SecretCertificate): CertificateFact | undefined {
  return read.leaf ? { source: read.source, subject: read.leaf.subject, notAfter: read.leaf.notAfter } : undefined;
}

/** Whether the leaf names `host` in its subjectAltNames (a wildcard covers one label). */
export const coversHost = (read: SecretCertificate, host: string) =>
  read.leaf?.x509.checkHost(host, { subject: 'never' }) !== undefined;

/** What is wrong with the secret's own certificate at `now`, as short phrases (empty when nothing). */
export type SecretProblemCode =
  'no-certificate' | 'expired' | 'key-missing' | 'key-mismatch' | 'key-unreadable' | 'not-covered';

export function secretProblems(
  read: SecretCertificate,
  now: Date,
  hosts: string[] = [],
): { code: SecretProblemCode; phrase: string; fatal: boolean }[] {
  if (!read.leaf) return [{ code: 'no-certificate', phrase: read.problem ?? SECRET.noCertificate, fatal: true }];
  const out: { code: SecretProblemCode; phrase: string; fatal: boolean }[] = [];
  if (Date.parse(read.leaf.notAfter) <= now.getTime())
    out.push({ code: 'expired', phrase: SECRET.expired(read.leaf.notAfter), fatal: true });
  if (read.key === 'missing') out.push({ code: 'key-missing', phrase: SECRET.keyEmpty, fatal: true });
  if (read.key === 'mismatch') out.push({ code: 'key-mismatch', phrase: SECRET.keyMismatch, fatal: true });
  if (read.key === 'unreadable') out.push({ code: 'key-unreadable', phrase: SECRET.keyUnreadable, fatal: true });
  const uncovered = hosts.filter((h) => !coversHost(read, h));
  if (uncovered.length)
    out.push({
      code: 'not-covered',
      phrase: SECRET.notCovered(read.leaf.names, uncovered),
      fatal: true,
    });
  return out;
}
