/**
 * What each kube check judges, built from the run's shared reads (kube/reads.ts): the namespaces in
 * scope, the Certificates with everything below them, the ingresses with their secrets, the supplied
 * wildcard's copies. Extra kubectl calls happen only where something is already wrong (a secret that
 * is not a TLS secret, the events of a stuck issuance).
 */
import { kubectl, type KubectlOptions } from '../../kube/kubectl.js';
import { itemsOf, type ClusterReads } from '../../kube/reads.js';
import type { CmObject } from '../../kube/objects.js';
import { INGRESS_NAMESPACES, PLATFORM_NAMESPACE } from '../../kube/platform.js';
import { readSecretCertificate, type SecretCertificate } from './secret-certificate.js';
import { readOtherSecrets, type IngressObject, type SecretLookup } from './ingress-secrets.js';
import type { WildcardCopy } from './wildcard.js';

export interface PlatformFacts {
  /** The ClusterIssuer's name from the inventory; null when the inventory makes it a template. */
  issuerName: string | null;
  ingressClass: string | null;
  issuerType?: string;
  suppliedSecret?: string;
}

const ISSUER_ANNOTATIONS = ['cert-manager.io/cluster-issuer', 'cert-manager.io/issuer'];
const tlsSecretNames = (i: IngressObject) =>
  (i.spec?.tls ?? []).map((t) => t.secretName).filter((n): n is string => Boolean(n));

/**
 * The platform's namespaces and every other one with an ingress carrying the platform's issuer
 * annotation (any issuer annotation when the name is a template) or using the supplied wildcard.
 */
export function namespacesInScope(ingresses: IngressObject[], facts: PlatformFacts): string[] {
  const extra = ingresses
    .filter((i) => {
      const annotations = i.metadata?.annotations ?? {};
      const issued = ISSUER_ANNOTATIONS.some(
        (a) => annotations[a] !== undefined && (facts.issuerName === null || annotations[a] === facts.issuerName),
      );
      return issued || (facts.suppliedSecret !== undefined && tlsSecretNames(i).includes(facts.suppliedSecret));
    })
    .map((i) => i.metadata?.namespace ?? '')
    .filter(Boolean);
  return [...new Set([...INGRESS_NAMESPACES, ...extra])];
}

export async function scopeOf(
  reads: ClusterReads,
  facts: PlatformFacts,
): Promise<{ namespaces: string[]; ingresses: IngressObject[]; error?: string }> {
  const list = await reads.list('ingresses');
  // Ingresses as kubectl prints them: objects of networking.k8s.io/v1 that the API server validated.
  const ingresses = itemsOf(list, 'Ingress') as IngressObject[];
  const namespaces = namespacesInScope(ingresses, facts);
  return {
    namespaces,
    ingresses: ingresses.filter((i) => namespaces.includes(i.metadata?.namespace ?? '')),
    ...(list.ok ? {} : { error: list.error }),
  };
}

/** The TLS secrets of the namespaces in scope, each read once per run (its key registered as a secret). */
export function tlsSecretsIn(reads: ClusterReads, namespaces: string[]): Promise<Map<string, SecretCertificate>> {
  return reads.derive(`tls secrets of ${namespaces.join(',')}`, async () => {
    const list = await reads.list('tlsSecrets');
    const out = new Map<string, SecretCertificate>();
    for (const secret of itemsOf(list, 'Secret')) {
      if (!namespaces.includes(secret.metadata?.namespace ?? '')) continue;
      const read = readSecretCertificate(secret);
      out.set(read.source, read);
    }
    return out;
  });
}

/** The ingress check's view of a secret: found with its type and certificate, or not a TLS secret (read by name), or missing. */
export async function ingressSecretLookups(
  reads: ClusterReads,
  ingresses: IngressObject[],
  secrets: Map<string, SecretCertificate>,
  kube: KubectlOptions,
): Promise<Map<string, SecretLookup>> {
  const lookups = new Map<string, SecretLookup>();
  for (const [key, read] of secrets)
    lookups.set(
      key,
      read.leaf
        ? { state: 'found', type: read.type ?? 'kubernetes.io/tls', certPem: 'parsed', x509: read.leaf.x509 }
        : { state: 'found', type: read.type ?? 'kubernetes.io/tls', certPem: '' },
    );
  const unknown = new Map<string, Set<string>>();
  for (const ingress of ingresses) {
    const ns = ingress.metadata?.namespace ?? '';
    for (const name of tlsSecretNames(ingress))
      if (!lookups.has(`${ns}/${name}`)) unknown.set(ns, (unknown.get(ns) ?? new Set()).add(name));
  }
  await Promise.all([...unknown].map(([ns, names]) => readOtherSecrets(ns, [...names], kube, lookups)));
  return lookups;
}

/** The supplied wildcard in the platform namespace and every namespace whose ingresses use it. */
export async function wildcardCopies(
  secretName: string,
  ingresses: IngressObject[],
  secrets: Map<string, SecretCertificate>,
  kube: KubectlOptions,
): Promise<WildcardCopy[]> {
  const namespaces = [
    ...new Set([
      PLATFORM_NAMESPACE,
      ...ingresses.filter((i) => tlsSecretNames(i).includes(secretName)).map((i) => i.metadata?.namespace ?? ''),
    ]),
  ];
  const copies: WildcardCopy[] = namespaces.map((namespace) => ({
    namespace,
    read: secrets.get(`${namespace}/${secretName}`),
  }));
  if (copies.every((c) => c.read)) return copies;
  // Missing among the TLS secrets: one call tells a secret of another type from a missing one.
  const result = await kubectl(
    [
      'get',
      'secrets',
      '--all-namespaces',
      `--field-selector=metadata.name=${secretName}`,
      '-o',
      'jsonpath={range .items[*]}{.metadata.namespace}{"\\t"}{.type}{"\\n"}{end}',
    ],
    kube,
  );
  const types = new Map(
    result.stdout
      .split('\n')
      .filter(Boolean)
      .map((row): [string, string] => {
        const [namespace, type = ''] = row.split('\t');
        return [namespace, type];
      }),
  );
  return copies.map((c) => (c.read || !types.has(c.namespace) ? c : { ...c, otherType: types.get(c.namespace) ?? '' }));
}

/** The objects below the Certificates, and the ClusterIssuers and Issuers that exist. */
export function certManagerObjects(items: CmObject[]) {
  const of = (kind: string) => items.filter((i) => i.kind === kind);
  return {
    certificates: of('Certificate'),
    issuance: { requests: of('CertificateRequest'), orders: of('Order'), challenges: of('Challenge') },
    clusterIssuers: of('ClusterIssuer'),
    issuers: of('Issuer'),
  };
}
