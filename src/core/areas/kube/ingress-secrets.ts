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
import { INGRESS_SECRETS } from './messages/certificates.js';

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
    problem: `the ingresses of ${escapeLine(namespace)} cannot be listed: ${escapeLine(error)}`,
    fix: `Let this user list ingresses in ${escapeLine(namespace)} (kubectl auth can-i list ingresses -n ${escapeLine(namespace)}).`,
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
        add(
          'no-secret-name',
          'fail',
          `its tls entry for ${list(hosts) || 'no host'} names no secretName, so the ingress controller serves its default certificate`,
          'Set tls[].secretName (the platform names it <service>-certs) and redeploy.',
        );
        continue;
      }
      const secret = escapeLine(`${ns}/${tls.secretName}`);
      const supplied = tls.secretName === snapshot.suppliedSecret;
      if (supplied && annotation) {
        add(
          'issuer-on-supplied',
          'fail',
          `uses the supplied wildcard secret ${secret} but carries ${annotation.key}: ${escapeLine(annotation.value!)}, so cert-manager will replace the operator's certificate in it with one it issues`,
          `Remove the annotation (kubectl annotate ingress ${escapeLine(ingress.metadata?.name ?? '')} -n ${escapeLine(ns)} ${annotation.key}-) and the Certificate it made (kubectl delete certificate ${escapeLine(tls.secretName)} -n ${escapeLine(ns)}); keep cluster_issuer_type: none so the deployment does not add it again, and put your certificate back if it was replaced.`,
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
          `its TLS secret ${secret} does not exist, so ${list(hosts) || 'its hosts'} get the ingress controller's default certificate`,
          supplied
            ? `Create the supplied wildcard secret in namespace ${escapeLine(ns)} too (a secret is visible only in its own namespace): kubectl create secret tls ${escapeLine(tls.secretName)} -n ${escapeLine(ns)} --cert=FULLCHAIN.pem --key=KEY.pem, or apply the manifest "cloudgate setup" wrote with this namespace.`
            : annotation
              ? `cert-manager has not issued it: see why with kube.certificates or "cloudgate status certificate ${escapeLine(ns)}/${escapeLine(tls.secretName)}" (the ingress's Certificate is named after its secret).`
              : `Create the TLS secret, or annotate the ingress with cert-manager.io/cluster-issuer: ${escapeLine(snapshot.platformIssuer)} so cert-manager issues it.`,
        );
        continue;
      }
      if (lookup.state === 'unreadable') {
        add(
          'secret-unreadable',
          'warn',
          `its TLS secret ${secret} cannot be read: ${escapeLine(lookup.error)}`,
          `Let this user get secrets in ${escapeLine(ns)} (kubectl auth can-i get secrets -n ${escapeLine(ns)}).`,
        );
        continue;
      }
      if (lookup.type !== 'kubernetes.io/tls') {
        if (ownedElsewhere) continue;
        add(
          'wrong-type',
          'fail',
          `its secret ${secret} has type ${escapeLine(lookup.type ?? '(none)')}, not kubernetes.io/tls, so the ingress controller ignores it`,
          `Recreate it as a TLS secret: kubectl delete secret ${escapeLine(tls.secretName)} -n ${escapeLine(ns)}, then kubectl create secret tls ${escapeLine(tls.secretName)} -n ${escapeLine(ns)} --cert=FULLCHAIN.pem --key=KEY.pem${annotation ? ' (or let cert-manager issue it again after the delete)' : ''}.`,
        );
        continue;
      }
      if (!lookup.certPem?.trim()) {
        if (ownedElsewhere) continue;
        add(
          'no-certificate',
          'fail',
          `its secret ${secret} holds no tls.crt`,
          'A TLS secret needs tls.crt (certificate, intermediates) and tls.key: recreate it with kubectl create secret tls.',
        );
        continue;
      }
      const key = `${ns}/${tls.secretName}`;
      if (snapshot.managedSecrets?.has(key)) continue;
      if (!leaves.has(key))
        leaves.set(key, lookup.x509 ? { x509: lookup.x509 } : leafOf(lookup.certPem, `${secret} tls.crt`));
      const leaf = leaves.get(key)!;
      if (leaf instanceof PemError) {
        add(
          'no-certificate',
          'fail',
          escapeLine(leaf.message),
          leaf.advice ?? 'Recreate the secret with a PEM certificate chain in tls.crt.',
        );
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
          `the certificate in ${secret} (${names.length ? `names ${list(names)}` : 'no DNS subjectAltName'}) does not cover ${list(uncovered)}`,
          supplied || !annotation
            ? `Put a certificate naming ${list(uncovered)} in ${secret} (a wildcard *.domain covers one label, not the domain itself nor deeper names).`
            : `cert-manager issued it for other names: delete the secret (cloudgate regenerate does it) so cert-manager issues one for the ingress's hosts.`,
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
      problem: `the ClusterIssuer ${issuer} is left over from before while cluster_issuer_type is none${users.length ? `, and these ingresses still ask cert-manager to issue from it` : ''}`,
      fix: `The deployment does not delete it: remove the issuer annotation from the ingresses that should use the supplied wildcard, then kubectl delete clusterissuer ${issuer}.`,
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
      problem: `serves ${list(withoutTls)} (spec.rules) but no tls[].hosts entry names it, so HTTPS there gets the ingress controller's default certificate`,
      fix: `Add ${list(withoutTls)} to tls[].hosts, or correct the rule's host (the platform takes both from the same host variable: redeploy).`,
    });
  }
  const withoutRule = ruleHosts.length ? tlsHosts.filter((h) => !ruleHosts.includes(h)) : [];
  if (withoutRule.length) {
    out.push({
      ingress: id,
      kind: 'tls-host-without-rule',
      status: 'warn',
      problem: `names ${list(withoutRule)} in tls[].hosts but no rule serves it (rules: ${list(ruleHosts)})`,
      fix: `Remove ${list(withoutRule)} from tls[].hosts or add the rule: cert-manager requests a certificate for every TLS host, and a name nothing serves cannot be validated over HTTP-01.`,
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
        problem: `${owners.length} ingresses claim the host ${escapeLine(host)}${secrets.length > 1 ? ` with different TLS secrets (${list(secrets)}); the controller serves only one of them` : ''}`,
        fix: `Keep ${escapeLine(host)} on one ingress: give the other service its own host variable, or delete the stale ingress.`,
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
      findings.map((f) => `${f.ingress}: ${f.problem}`).join('; '),
    ),
    advice: findings.map((f) => `${f.ingress}: ${f.fix}`).join(' '),
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
