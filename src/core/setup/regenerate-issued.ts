/**
 * Which certificate secrets the current issuer has already issued, so that a second `regenerate`
 * deletes nothing it need not: a secret is the new issuer's when its certificate names the new CA as
 * issuer (CA and self-signed issuers), or when cert-manager created it after the issuer last changed.
 */
import { X509Certificate } from 'node:crypto';
import { memberOf, textOf } from '../records.js';
import { certificateBlocks } from '../tls/pem.js';

export interface IssuerIdentity {
  /** The subject the current issuer's certificates name as their issuer, when it is known in advance. */
  issuerSubject?: string;
  /** When the live ClusterIssuer's spec last changed. */
  changedAt?: Date;
}

export interface IssuedSecret {
  createdAt?: string;
  /** The secret's tls.crt, PEM (certificate only; the key is never read here). */
  certificatePem?: string;
}

/** A reason to keep the secret, or undefined when it is the previous issuer's (or nothing tells). */
export function issuedByCurrent(secret: IssuedSecret, current: IssuerIdentity): string | undefined {
  const issuer = leafIssuer(secret.certificatePem);
  if (current.issuerSubject && issuer !== undefined) {
    return issuer === current.issuerSubject
      ? `its certificate is already issued by the current issuer (${current.issuerSubject})`
      : undefined;
  }
  const created = secret.createdAt ? new Date(secret.createdAt) : undefined;
  if (current.changedAt && created && !Number.isNaN(created.getTime()) && created > current.changedAt) {
    return `created at ${created.toISOString()}, after the issuer changed (${current.changedAt.toISOString()}): already issued by the current issuer`;
  }
  return undefined;
}

function leafIssuer(pem: string | undefined): string | undefined {
  const first = pem && certificateBlocks(pem)[0];
  if (!first) return undefined;
  try {
    return new X509Certificate(first).issuer;
  } catch {
    return undefined;
  }
}

/** The subject of the first certificate of a PEM bundle (the CA that signs). */
export function subjectOf(pem: unknown): string | undefined {
  if (typeof pem !== 'string') return undefined;
  const first = certificateBlocks(pem)[0];
  if (!first) return undefined;
  try {
    return new X509Certificate(first).subject;
  } catch {
    return undefined;
  }
}

/** When the live ClusterIssuer's spec last changed: the newest managed-fields entry touching spec, or its creation. */
export function specChangedAt(clusterIssuer: unknown): Date | undefined {
  const meta = memberOf(clusterIssuer, 'metadata');
  const fields = memberOf(meta, 'managedFields');
  const times = (Array.isArray(fields) ? fields : [])
    .flatMap((field: unknown) => {
      const time = textOf(memberOf(field, 'time'));
      return time && JSON.stringify(memberOf(field, 'fieldsV1') ?? {}).includes('"f:spec"')
        ? [new Date(time).getTime()]
        : [];
    })
    .filter((t) => !Number.isNaN(t));
  if (times.length > 0) return new Date(Math.max(...times));
  const createdAt = textOf(memberOf(meta, 'creationTimestamp'));
  const created = createdAt ? new Date(createdAt) : undefined;
  return created && !Number.isNaN(created.getTime()) ? created : undefined;
}
