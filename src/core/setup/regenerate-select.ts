/**
 * Which secrets `regenerate` may delete. Deleting is safe only when cert-manager will issue the secret
 * again from the new issuer: so only a `kubernetes.io/tls` secret that a Certificate in the same
 * namespace names as its `spec.secretName`, and that the ClusterIssuer being replaced issued (the
 * secret's issuer annotations, else the Certificate's issuerRef). An Opaque secret that happens to carry
 * the annotations, or an orphan TLS secret no Certificate will re-issue, would be lost for good.
 */
import {
  CERTIFICATE_NAME_ANNOTATION,
  ISSUER_KIND_ANNOTATION,
  ISSUER_NAME_ANNOTATION,
  type KeptSecret,
  type SecretSummary,
  type StaleSecret,
  type StaleSelection,
} from './regenerate.js';
import { issuedByCurrent, type IssuerIdentity } from './regenerate-issued.js';
import { memberOf, textOf } from '../records.js';

export const TLS_SECRET_TYPE = 'kubernetes.io/tls';

/** A cert-manager Certificate, as much of it as the selection reads. */
export interface CertificateSummary {
  namespace: string;
  name: string;
  secretName?: string;
  issuerName?: string;
  /** cert-manager's default for an issuerRef without kind is `Issuer`. */
  issuerKind: string;
}

export interface IssuedSelection extends StaleSelection {
  /** Secrets that have nothing to do with certificates (not TLS, no cert-manager annotation, no Certificate): counted, not listed. */
  unrelated: number;
  /** Set when nothing may be deleted automatically, with why (the issuer's name is a template). */
  undecided?: string;
  /** The ClusterIssuer the inventory names does not exist in the cluster: none is being replaced. */
  replacedMissing?: true;
}

export interface IssuedOptions {
  /** The ClusterIssuer being replaced; null when the inventory makes its name a template. */
  issuerName: string | null;
  protectedNames: string[];
  current?: IssuerIdentity;
}

/** Kubernetes `CertificateList` items → summaries (anything malformed is skipped). */
export function summarizeCertificates(list: unknown): CertificateSummary[] {
  const items = memberOf(list, 'items');
  if (!Array.isArray(items)) return [];
  return items.flatMap((item: unknown) => {
    const metadata = memberOf(item, 'metadata');
    const spec = memberOf(item, 'spec');
    const name = textOf(memberOf(metadata, 'name'));
    const namespace = textOf(memberOf(metadata, 'namespace'));
    if (name === undefined || namespace === undefined) return [];
    const ref = memberOf(spec, 'issuerRef');
    const secretName = textOf(memberOf(spec, 'secretName'));
    const issuerName = textOf(memberOf(ref, 'name'));
    const kind = textOf(memberOf(ref, 'kind'));
    return [
      {
        namespace,
        name,
        ...(secretName !== undefined ? { secretName } : {}),
        ...(issuerName !== undefined ? { issuerName } : {}),
        issuerKind: kind !== undefined && kind !== '' ? kind : 'Issuer',
      },
    ];
  });
}

const isCertificateRelated = (s: SecretSummary, named: boolean) =>
  named || s.type === TLS_SECRET_TYPE || Object.keys(s.annotations).some((k) => k.startsWith('cert-manager.io/'));

export function selectIssuedSecrets(
  secrets: SecretSummary[],
  certificates: CertificateSummary[],
  options: IssuedOptions,
): IssuedSelection {
  const stale: StaleSecret[] = [];
  const kept: KeptSecret[] = [];
  let unrelated = 0;
  const replaced = options.issuerName;
  for (const secret of secrets) {
    const { namespace, name } = secret;
    const certificate = certificates.find((c) => c.namespace === namespace && c.secretName === name);
    if (!isCertificateRelated(secret, certificate !== undefined)) {
      unrelated++;
      continue;
    }
    const keep = (reason: string) => kept.push({ namespace, name, reason });
    if (options.protectedNames.includes(name)) {
      keep('the supplied wildcard certificate (openstack_helm_ingress_secret_name): never deleted');
      continue;
    }
    if (secret.type !== TLS_SECRET_TYPE) {
      keep(`not a TLS secret (type ${secret.type ?? 'unset'}): cert-manager would not issue it again`);
      continue;
    }
    if (!certificate) {
      keep(`no Certificate in ${namespace} names it as its secretName: nothing would issue it again`);
      continue;
    }
    const annotated = secret.annotations[ISSUER_NAME_ANNOTATION];
    const issuer =
      annotated !== undefined
        ? { name: annotated, kind: secret.annotations[ISSUER_KIND_ANNOTATION] ?? 'Issuer' }
        : { name: certificate.issuerName, kind: certificate.issuerKind };
    if (issuer.name === undefined) {
      keep(`neither the secret nor Certificate ${certificate.name} names its issuer`);
      continue;
    }
    if (replaced === null) {
      keep(
        `issued by ${issuer.kind} "${issuer.name}"; the inventory's ClusterIssuer name is a template, so whether that is the one being replaced is unknown`,
      );
      continue;
    }
    if (issuer.kind !== 'ClusterIssuer' || issuer.name !== replaced) {
      keep(`issued by ${issuer.kind} "${issuer.name}", not by ClusterIssuer "${replaced}"`);
      continue;
    }
    if (certificate.issuerKind !== 'ClusterIssuer' || certificate.issuerName !== replaced) {
      keep(
        `Certificate ${certificate.name} now names ${certificate.issuerKind} "${certificate.issuerName ?? ''}": it is re-issued from that issuer, not from ClusterIssuer "${replaced}"`,
      );
      continue;
    }
    const current = options.current ? issuedByCurrent(secret, options.current) : undefined;
    if (current) {
      keep(current);
      continue;
    }
    stale.push({ namespace, name, certificate: certificate.name ?? secret.annotations[CERTIFICATE_NAME_ANNOTATION] });
  }
  const order = (a: { namespace: string; name: string }, b: { namespace: string; name: string }) =>
    a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);
  return {
    stale: stale.sort(order),
    kept: kept.sort(order),
    unrelated,
    ...(replaced === null
      ? {
          undecided:
            "the inventory makes the ClusterIssuer's name a Jinja template, resolved only at deploy time: cloudgate cannot tell which secrets the replaced issuer issued, so it deletes none",
        }
      : {}),
  };
}
