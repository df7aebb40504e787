/**
 * `kube.wildcard-secret`: the operator's supplied wildcard (issuer none) in every namespace whose
 * ingresses use it. A secret is visible only in its own namespace, so each copy is checked like the
 * original: present, a TLS secret, a certificate covering the wildcard domain that has not expired,
 * a tls.key that is not empty and belongs to it, and the same certificate as the platform namespace's.
 * The platform never renews it: every fix is the operator's. Pure.
 */
import type { WildcardFacts } from './facts.js';
import type { CertificateFact, CheckResult } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import { DAY_MS, EXPIRY_WARNING_DAYS } from '../../tls/checks.js';
import { examine } from '../../tls/examine.js';
import { certificateFact, coversHost, secretProblems, type SecretCertificate } from './secret-certificate.js';
import { SUPPLIED_WILDCARD } from './messages/certificates.js';

export interface WildcardCopy {
  namespace: string;
  /** The secret read (from the TLS secrets), or what else was found under that name. */
  read?: SecretCertificate;
  /** Set when a secret of that name exists but is not of type kubernetes.io/tls. */
  otherType?: string;
}

export interface CopyFinding {
  source: string;
  status: 'fail' | 'warn';
  problem: string;
}

export function wildcardCopiesResult(
  secretName: string,
  copies: WildcardCopy[],
  domain: string | undefined,
  platformNamespace: string,
  now: Date,
): CheckResult<WildcardFacts> {
  const findings: CopyFinding[] = [];
  const certificates: CertificateFact[] = [];
  const original = copies.find((c) => c.namespace === platformNamespace)?.read;
  for (const copy of copies) {
    const source = `${copy.namespace}/${secretName}`;
    if (copy.otherType !== undefined) {
      findings.push({
        source,
        status: 'fail',
        problem: SUPPLIED_WILDCARD.notTls(escapeLine(copy.otherType || '(none)')),
      });
      continue;
    }
    if (!copy.read) {
      findings.push({ source, status: 'fail', problem: SUPPLIED_WILDCARD.missing });
      continue;
    }
    const fact = certificateFact(copy.read);
    if (fact) certificates.push(fact);
    // A chain out of order puts another certificate first, so the key seems not to belong: say the cause.
    const chain = chainProblems(copy.read, now);
    const problems = secretProblems(copy.read, now).filter((p) => !(chain.length && p.code === 'key-mismatch'));
    for (const p of problems) findings.push({ source, status: 'fail', problem: p.phrase });
    for (const problem of chain) findings.push({ source, status: 'fail', problem });
    const leaf = copy.read.leaf;
    if (!leaf || problems.length || chain.length) continue;
    if (domain && !coversHost(copy.read, `host.${domain}`))
      findings.push({
        source,
        status: 'fail',
        problem: SUPPLIED_WILDCARD.doesNotCover(leaf.names.join(', ') || SUPPLIED_WILDCARD.noDnsName, domain),
      });
    const days = Math.floor((Date.parse(leaf.notAfter) - now.getTime()) / DAY_MS);
    if (days < EXPIRY_WARNING_DAYS)
      findings.push({ source, status: 'warn', problem: SUPPLIED_WILDCARD.expiresSoon(days, leaf.notAfter) });
    if (original?.leaf && copy.read !== original && original.leaf.x509.fingerprint256 !== leaf.x509.fingerprint256) {
      findings.push({
        source,
        status: 'warn',
        problem: SUPPLIED_WILDCARD.otherCertificate(
          `${platformNamespace}/${secretName}`,
          leaf.notAfter,
          original.leaf.notAfter,
        ),
      });
    }
  }
  const where = copies.map((c) => c.namespace).join(', ');
  // `chain`: the platform namespace copy's leaf, in the shape the exporter read before it read `certificates`.
  const chain = original?.leaf ? [{ subject: original.leaf.subject, notAfter: original.leaf.notAfter }] : undefined;
  const facts = {
    secret: `${platformNamespace}/${secretName}`,
    copies: copies.map((c) => `${c.namespace}/${secretName}`),
    findings,
    ...(chain ? { chain } : {}),
  };
  if (findings.length === 0) {
    return {
      status: 'ok',
      message: SUPPLIED_WILDCARD.valid(secretName, where, domain ? `*.${domain}` : SUPPLIED_WILDCARD.itsNames),
      facts,
      certificates,
    };
  }
  return {
    status: findings.some((f) => f.status === 'fail') ? 'fail' : 'warn',
    message: SUPPLIED_WILDCARD.problems(findings.map((f) => `${f.source}: ${f.problem}`).join('; ')),
    advice: SUPPLIED_WILDCARD.replaceEachCopy(secretName),
    facts,
    certificates,
    stuck: { step: 'secret', object: `Secret ${findings[0].source}`, reason: findings[0].problem },
  };
}

/**
 * The chain of tls.crt as an ingress serves it: in order (leaf, intermediates, root) and complete up to a
 * trusted root, the same checks setup makes of the files before it writes the manifest.
 */
function chainProblems(read: SecretCertificate, now: Date): string[] {
  if (!read.certPem || !read.leaf) return [];
  const { checks } = examine({
    certPem: read.certPem,
    certSource: `${read.source} tls.crt`,
    role: 'wildcard',
    now,
    fixHint: 'Run "cloudgate setup --fix-order" with the certificate file and apply the manifest it writes.',
    renewAdvice: '',
  });
  return checks
    .filter((c) => (c.name === 'chain-order' || c.name === 'chain-complete') && c.status === 'fail')
    .map(
      (c) =>
        `its tls.crt ${c.name === 'chain-order' ? 'is not in order (leaf, intermediates, root)' : 'does not chain to a trusted root'}: ${escapeLine(c.message)}`,
    );
}
