/**
 * `kube.ingress-secrets`: who owns the certificate secrets of the platform's ingresses. Every
 * ingress of the platform's namespaces (`openstack`, `auth-system`, `monitoring` and any other whose
 * ingresses carry the platform's issuer annotation) must find its `tls[].secretName` in its own
 * namespace, of type kubernetes.io/tls, with a certificate covering its TLS hosts; the supplied
 * wildcard must not be handed to cert-manager through an issuer annotation; a host belongs to one
 * ingress; TLS hosts and rule hosts agree. A secret a Certificate manages is kube.certificates'
 * business and the supplied wildcard's content kube.wildcard-secret's: each cause is said once.
 * `judgeIngresses` is the pure part.
 */
import type { IngressSecretsFacts } from './facts.js';
import type { X509Certificate } from 'node:crypto';
import type { CheckResult } from '../../doctor/types.js';
import { escapeLine, escapeRegExp } from '../../escape.js';
import { firstLine, kubectl, type KubectlOptions } from '../../kube/kubectl.js';
import { dnsNames } from '../../tls/checks.js';
import { parseCertificates, PemError, type ParsedCertificate } from '../../tls/pem.js';
import { INGRESS_FINDING, INGRESS_SECRETS } from './messages/certificates.js';

/** cert-manager's temporary HTTP-01 solver ingresses share the host of the ingress they validate. */
const SOLVER_LABEL = 'acme.cert-manager.io/http01-solver';
const ISSUER_ANNOTATIONS = ['cert-manager.io/cluster-issuer', 'cert-manager.io/issuer'];

export interface IngressObject {
  metadata?: {
    name?: string;
    namespace?: string;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
  };
  spec?: { tls?: { hosts?: string[]; secretName?: string }[]; rules?: { host?: string }[] };
}

/** What is read of a secret: its type and its certificate chain (never its key). */
export type SecretLookup =
  | {
      state: 'found';
      type?: string;
      certPem?: string;
      /** Already parsed by whoever read the secret. */ x509?: X509Certificate;
    }
  | { state: 'missing' }
  | { state: 'unreadable'; error: string };

export interface IngressSnapshot {
  ingresses: IngressObject[];
  /** The namespaces looked at. */
  namespaces: string[];
  /** The platform's ClusterIssuer's name (from the inventory). */
  platformIssuer: string;
  /** `namespace/name` of every secret a Certificate manages: kube.certificates judges those. */
  managedSecrets?: Set<string>;
  /** Keyed by "namespace/name". */
  secrets: Map<string, SecretLookup>;
  issuerType?: string;
  /** `openstack_helm_ingress_secret_name`. */
  suppliedSecret?: string;
  /** A ClusterIssuer `atmosphere` exists. */
  platformIssuerExists?: boolean;
  /** Namespaces whose ingresses could not be listed, with kubectl's reason. */
  unreadable?: { namespace: string; error: string }[];
}

export type FindingKind =
  | 'no-secret-name'
  | 'secret-missing'
  | 'secret-unreadable'
  | 'wrong-type'
  | 'no-certificate'
  | 'not-covered'
  | 'issuer-on-supplied'
  | 'leftover-issuer'
  | 'duplicate-host'
  | 'rule-host-without-tls'
  | 'tls-host-without-rule'
  | 'namespace-unreadable';

export interface IngressFinding {
  /** "namespace/name" of the ingress (or ingresses) concerned. */
  ingress: string;
  kind: FindingKind;
  status: 'fail' | 'warn';
  problem: string;
  fix: string;
}

const lower = (hosts: (string | undefined)[] | undefined) => [
  ...new Set((hosts ?? []).filter((h): h is string => Boolean(h)).map((h) => h.toLowerCase())),
];
const idOf = (i: IngressObject) => escapeLine(`${i.metadata?.namespace ?? '?'}/${i.metadata?.name ?? '?'}`);
const issuerAnnotation = (i: IngressObject) =>
  ISSUER_ANNOTATIONS.map((a) => ({ key: a, value: i.metadata?.annotations?.[a] })).find((a) => a.value);
const list = (items: string[]) => items.map(escapeLine).join(', ');

/** A secret's leaf: parsed here, or already by whoever read the secret. */
type Leaf = Pick<ParsedCertificate, 'x509'>;

/** Whether the leaf names the host in its subjectAltNames (a wildcard covers one label; the common name does not count). */
const covers = (leaf: Leaf, host: string) => leaf.x509.checkHost(host, { subject: 'never' }) !== undefined;

export function judgeIngresses(snapshot: IngressSnapshot): IngressFinding[] {
  const findings: IngressFinding[] = (snapshot.unreadable ?? []).map(({ namespace, error }) => ({
    ingress: `${escapeLine(namespace)}/*`,
    kind: 'namespace-unreadable' as const,
    status: 'warn' as const,
    problem: INGRESS_FINDING.cannotList(escapeLine(namespace), escapeLine(error)),
    fix: INGRESS_FINDING.letList(escapeLine(namespace)),
  }));
  const ingresses = snapshot.ingresses.filter((i) => i.metadata?.labels?.[SOLVER_LABEL] === undefined);
  const leaves = new Map<string, Leaf | PemError>();
  for (const ingress of ingresses) {
    const id = idOf(ingress);
    const ns = ingress.metadata?.namespace ?? '';
    const annotation = issuerAnnotation(ingress);
    const add = (kind: FindingKind, status: 'fail' | 'warn', problem: string, fix: string) =>
      findings.push({ ingress: id, kind, status, problem, fix });
    for (const tls of ingress.spec?.tls ?? []) {
      const hosts = lower(tls.hosts);
      if (!tls.secretName) {
        add('no-secret-name', 'fail', INGRESS_FINDING.noSecretName(list(hosts)), INGRESS_FINDING.setSecretName);
        continue;
      }
      const secret = escapeLine(`${ns}/${tls.secretName}`);
      const supplied = tls.secretName === snapshot.suppliedSecret;
      if (supplied && annotation) {
        add(
          'issuer-on-supplied',
          'fail',
          INGRESS_FINDING.issuerOnSupplied(secret, annotation.key, escapeLine(annotation.value!)),
          INGRESS_FINDING.removeIssuerAnnotation(
            escapeLine(ingress.metadata?.name ?? ''),
            escapeLine(ns),
            annotation.key,
            escapeLine(tls.secretName),
          ),
        );
      }
      // Said by kube.certificates (a secret a Certificate manages) or kube.wildcard-secret (the supplied one).
      const ownedElsewhere = supplied || snapshot.managedSecrets?.has(`${ns}/${tls.secretName}`);
      const lookup = snapshot.secrets.get(`${ns}/${tls.secretName}`) ?? { state: 'missing' };
      if (ownedElsewhere && lookup.state !== 'found') continue;
      if (lookup.state === 'missing') {
        add(
          'secret-missing',
          'fail',
          INGRESS_FINDING.secretMissing(secret, list(hosts)),
          supplied
            ? INGRESS_FINDING.copySuppliedHere(escapeLine(ns), escapeLine(tls.secretName))
            : annotation
              ? INGRESS_FINDING.notIssuedYet(escapeLine(ns), escapeLine(tls.secretName))
              : INGRESS_FINDING.createOrAnnotate(escapeLine(snapshot.platformIssuer)),
        );
        continue;
      }
      if (lookup.state === 'unreadable') {
        add(
          'secret-unreadable',
          'warn',
          INGRESS_FINDING.secretUnreadable(secret, escapeLine(lookup.error)),
          INGRESS_FINDING.letGetSecrets(escapeLine(ns)),
        );
        continue;
      }
      if (lookup.type !== 'kubernetes.io/tls') {
        if (ownedElsewhere) continue;
        add(
          'wrong-type',
          'fail',
          INGRESS_FINDING.wrongType(secret, escapeLine(lookup.type ?? '(none)')),
          INGRESS_FINDING.recreateAsTls(escapeLine(tls.secretName), escapeLine(ns), Boolean(annotation)),
        );
        continue;
      }
      if (!lookup.certPem?.trim()) {
        if (ownedElsewhere) continue;
        add('no-certificate', 'fail', INGRESS_FINDING.noTlsCrt(secret), INGRESS_FINDING.recreateWithTlsCrt);
        continue;
      }
      const key = `${ns}/${tls.secretName}`;
      if (snapshot.managedSecrets?.has(key)) continue;
      if (!leaves.has(key))
        leaves.set(key, lookup.x509 ? { x509: lookup.x509 } : leafOf(lookup.certPem, `${secret} tls.crt`));
      const leaf = leaves.get(key)!;
      if (leaf instanceof PemError) {
        add('no-certificate', 'fail', escapeLine(leaf.message), leaf.advice ?? INGRESS_FINDING.recreateWithPem);
        continue;
      }
      // A supplied wildcard whose tls.crt starts with a CA is out of order: kube.wildcard-secret's one finding, not also "hosts not covered".
      if (supplied && snapshot.issuerType === 'none' && leaf.x509.ca) continue;
      const uncovered = hosts.filter((h) => !covers(leaf, h));
      if (uncovered.length) {
        const names = dnsNames(leaf);
        add(
          'not-covered',
          'fail',
          INGRESS_FINDING.notCovered(secret, names.length ? list(names) : undefined, list(uncovered)),
          supplied || !annotation
            ? INGRESS_FINDING.putCoveringCertificate(list(uncovered), secret)
            : INGRESS_FINDING.deleteForReissue,
        );
      }
    }
    findings.push(...hostAgreement(ingress, id));
  }
  findings.push(...duplicateHosts(ingresses));
  if (snapshot.issuerType === 'none' && snapshot.platformIssuerExists) {
    const issuer = escapeLine(snapshot.platformIssuer);
    const users = ingresses.filter((i) => issuerAnnotation(i)?.value === snapshot.platformIssuer).map(idOf);
    findings.push({
      ingress: users.length ? users.join(', ') : `ClusterIssuer ${issuer}`,
      kind: 'leftover-issuer',
      status: 'warn',
      problem: INGRESS_FINDING.leftoverIssuer(issuer, users.length > 0),
      fix: INGRESS_FINDING.deleteLeftoverIssuer(issuer),
    });
  }
  return findings;
}

function leafOf(pem: string, source: string): ParsedCertificate | PemError {
  try {
    return parseCertificates(pem, source).certificates[0];
  } catch (error) {
    if (error instanceof PemError) return error;
    throw error;
  }
}

/** `tls[].hosts` against `spec.rules[].host`: a served host without TLS, a TLS host nobody serves. */
function hostAgreement(ingress: IngressObject, id: string): IngressFinding[] {
  const tls = ingress.spec?.tls ?? [];
  if (tls.length === 0) return [];
  const tlsHosts = lower(tls.flatMap((t) => t.hosts ?? []));
  const ruleHosts = lower((ingress.spec?.rules ?? []).map((r) => r.host));
  const out: IngressFinding[] = [];
  const withoutTls = ruleHosts.filter((h) => !tlsHosts.includes(h));
  if (withoutTls.length) {
    out.push({
      ingress: id,
      kind: 'rule-host-without-tls',
      status: 'fail',
      problem: INGRESS_FINDING.ruleHostWithoutTls(list(withoutTls)),
      fix: INGRESS_FINDING.addTlsHost(list(withoutTls)),
    });
  }
  const withoutRule = ruleHosts.length ? tlsHosts.filter((h) => !ruleHosts.includes(h)) : [];
  if (withoutRule.length) {
    out.push({
      ingress: id,
      kind: 'tls-host-without-rule',
      status: 'warn',
      problem: INGRESS_FINDING.tlsHostWithoutRule(list(withoutRule), list(ruleHosts)),
      fix: INGRESS_FINDING.removeTlsHost(list(withoutRule)),
    });
  }
  return out;
}

/** A host claimed by two ingresses: the controller merges them and serves one TLS secret for both. */
function duplicateHosts(ingresses: IngressObject[]): IngressFinding[] {
  const claims = new Map<string, { id: string; secret?: string }[]>();
  for (const ingress of ingresses) {
    const hosts = lower([
      ...(ingress.spec?.rules ?? []).map((r) => r.host),
      ...(ingress.spec?.tls ?? []).flatMap((t) => t.hosts ?? []),
    ]);
    for (const host of hosts) {
      const secret = (ingress.spec?.tls ?? []).find((t) => lower(t.hosts).includes(host))?.secretName;
      const ns = ingress.metadata?.namespace ?? '';
      claims.set(host, [
        ...(claims.get(host) ?? []),
        { id: idOf(ingress), secret: secret ? `${ns}/${secret}` : undefined },
      ]);
    }
  }
  return [...claims.entries()]
    .filter(([, owners]) => owners.length > 1)
    .map(([host, owners]) => {
      const secrets = [...new Set(owners.map((o) => o.secret ?? '(none)'))];
      return {
        ingress: owners.map((o) => o.id).join(', '),
        kind: 'duplicate-host' as const,
        status: secrets.length > 1 ? ('fail' as const) : ('warn' as const),
        problem: INGRESS_FINDING.duplicateHost(
          owners.length,
          escapeLine(host),
          secrets.length > 1 ? list(secrets) : undefined,
        ),
        fix: INGRESS_FINDING.keepOnOneIngress(escapeLine(host)),
      };
    });
}

/** The check's verdict from the findings. */
export function ingressSecretsResult(
  snapshot: IngressSnapshot,
  findings: IngressFinding[],
): CheckResult<IngressSecretsFacts> {
  const count = snapshot.ingresses.filter((i) => i.metadata?.labels?.[SOLVER_LABEL] === undefined).length;
  const where = snapshot.namespaces.join(', ');
  const facts = { ingresses: count, namespaces: snapshot.namespaces, findings };
  if (findings.length === 0) {
    if (count === 0) {
      return { status: 'warn', message: INGRESS_SECRETS.noIngress(where), advice: INGRESS_SECRETS.notDeployed, facts };
    }
    return { status: 'ok', message: INGRESS_SECRETS.allValid(count, where), facts };
  }
  return {
    status: findings.some((f) => f.status === 'fail') ? 'fail' : 'warn',
    message: INGRESS_SECRETS.problems(
      findings.length,
      count,
      findings.map((f) => INGRESS_FINDING.at(f.ingress, f.problem)).join('; '),
    ),
    advice: findings.map((f) => INGRESS_FINDING.at(f.ingress, f.fix)).join(' '),
    facts,
  };
}

// --- reading the cluster -----------------------------------------------------------------------

/** Type and tls.crt of the named secrets that are not TLS secrets or do not exist: one kubectl call per namespace, only for those. */
export async function readOtherSecrets(
  ns: string,
  names: string[],
  kube: KubectlOptions,
  into: Map<string, SecretLookup>,
): Promise<void> {
  if (names.length === 0) return;
  const line = '{.metadata.name}{"\\t"}{.type}{"\\t"}{.data.tls\\.crt}{"\\n"}';
  // One name answers with the object itself, several with a list.
  const template = names.length === 1 ? line : `{range .items[*]}${line}{end}`;
  const result = await kubectl(
    ['get', 'secrets', '--namespace', ns, '-o', `jsonpath=${template}`, '--', ...names],
    kube,
  );
  for (const row of result.stdout.split('\n')) {
    const [name, type, crt] = row.split('\t');
    if (!name) continue;
    into.set(`${ns}/${name}`, {
      state: 'found',
      type: type || undefined,
      certPem: crt ? Buffer.from(crt, 'base64').toString('utf8') : undefined,
    });
  }
  for (const name of names) {
    if (into.has(`${ns}/${name}`)) continue;
    const missing = new RegExp(`"${escapeRegExp(name)}" not found`).test(result.stderr);
    into.set(
      `${ns}/${name}`,
      missing
        ? { state: 'missing' }
        : { state: 'unreadable', error: firstLine(result.stderr) || `kubectl exit code ${result.exitCode}` },
    );
  }
}
