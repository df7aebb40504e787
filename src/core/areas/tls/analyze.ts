/**
 * Turns one TLS probe into a `tls.<host>` result: trust (and by which store), host name, expiry,
 * the served chain's order and completeness, and whether what is served matches the inventory.
 */
import type { X509Certificate } from 'node:crypto';
import type { CheckResult } from '../../doctor/types.js';
import type { TlsProbeResult } from '../../net/tls-probe.js';
import { analyzeChain, chainsToPublicRoot, isSelfSigned } from '../../tls/served-path.js';
import { EXPIRY_WARNING_DAYS } from '../../tls/checks.js';
import { altNames, commonName } from '../../tls/pem.js';
import { certificateFact } from '../../tls/facts.js';
import type { Endpoint } from './endpoints.js';
import { expectsWildcard, servedIndividually, type ServedExpectations } from '../../config/expectations.js';
import { joinCapped } from '../../bounded.js';
import { isOneOf } from '../../records.js';
import { ISSUER_TYPES, ISSUER_TYPE_VALUES } from '../../config/vocabulary.js';
import { chainWeaknesses, describeWeaknesses, WEAK_CRYPTO_ERRORS } from '../../tls/strength.js';

const DAY = 86_400_000;
const FAKE_CERTIFICATE = 'Kubernetes Ingress Controller Fake Certificate';
const INCOMPLETE = new Set(['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT']);
const REGENERATE = 'After fixing the issuer, run "cloudgate regenerate" so the certificates are issued again.';

interface Problem {
  level: 'fail' | 'warn';
  message: string;
  advice: string;
}

const days = (ms: number) => Math.floor(ms / DAY);

export function sanNames(cert: X509Certificate): string[] {
  return altNames(cert).all;
}

/** What --verbose and --json show of an endpoint: where it was reached, and what it served. */
export interface EndpointFacts {
  endpoint: string;
  address?: string;
  source: string;
  subject?: string;
  issuer?: string;
  names?: string[];
  notAfter?: string;
  daysLeft?: number;
  trusted?: boolean | 'not checked (--insecure)';
  trustStore?: string;
  verifyError?: string;
  chain?: { subject: string; issuer: string; notAfter: string }[];
  chainOrder?: 'in order' | 'out of order';
  chainAsServed?: boolean;
  protocol?: string;
  problems?: string[];
}

export function analyzeServed(
  endpoint: Endpoint,
  probe: TlsProbeResult,
  expected: ServedExpectations,
  now: Date,
  options: { insecure?: boolean } = {},
): CheckResult<EndpointFacts> {
  const leaf = probe.chain[0];
  const where = `${endpoint.host}:${endpoint.port}`;
  const about = { subject: { endpoint: where }, certificates: probe.chain.map((c) => certificateFact(where, c)) };
  if (!leaf) return { status: 'fail', message: `${where} presented no certificate.`, advice: 'Check the ingress TLS configuration of this host.', ...about };
  const problems: Problem[] = [];
  const add = (level: Problem['level'], message: string, advice: string) => problems.push({ level, message, advice });
  const leafName = commonName(leaf.subject);
  const issuerName = commonName(leaf.issuer);
  const chain = analyzeChain(probe.chain);
  const notAfter = new Date(leaf.validTo);
  const left = notAfter.getTime() - now.getTime();
  const wildcardOnly = !sanNames(leaf).includes(endpoint.host) && sanNames(leaf).some((n) => n.startsWith('*.'));

  if (leafName === FAKE_CERTIFICATE) {
    add('fail', `${where} serves the ingress controller's default "${FAKE_CERTIFICATE}": the ingress has no usable TLS secret.`,
      'The TLS secret of this ingress is missing, or its tls.crt does not start with the certificate matching tls.key (ingress-nginx then falls back silently). ' +
        'Look at "kubectl get certificate,secret -n openstack" and run "cloudgate doctor --only kube".');
  }
  if (left <= 0) {
    add('fail', `The certificate of ${where} expired on ${notAfter.toISOString().slice(0, 10)}.`, expiryAdvice(expected));
  } else if (new Date(leaf.validFrom).getTime() > now.getTime()) {
    add('fail', `The certificate of ${where} is not valid before ${new Date(leaf.validFrom).toISOString()}.`, 'Check the clock of this machine and of the issuer.');
  } else if (left < EXPIRY_WARNING_DAYS * DAY) {
    add('warn', `The certificate of ${where} expires in ${days(left)} days (${notAfter.toISOString().slice(0, 10)}).`, expiryAdvice(expected));
  }
  if (!probe.hostMatches) {
    add('fail', `The certificate of ${where} does not cover ${endpoint.host}: it names ${joinCapped(sanNames(leaf)) || `only CN=${leafName}`}.`,
      wildcardOnly
        ? 'A wildcard *.d covers exactly one label (a.d, not a.b.d and not d itself); issue a certificate that names this host.'
        : 'Serve a certificate whose subjectAltName includes this host, or check that the name resolves to the right ingress.');
  }
  // Weak cryptography is said as such: OpenSSL's verdict on it (UNSPECIFIED, CA_MD_TOO_WEAK) is no unknown CA.
  const weak = chainWeaknesses(probe.chain);
  if (weak.length) {
    add('fail', `The chain served by ${where} uses cryptography clients refuse: ${describeWeaknesses(weak)}.`,
      `${[...new Set(weak.map((w) => w.fix))].join('; ')}; clients refuse it whatever CA signed it, and --ca-file cannot change that.`);
  }
  const weakVerdict = weak.length > 0 && ['UNSPECIFIED', ...WEAK_CRYPTO_ERRORS].includes(probe.authorizationError ?? '');
  if (!options.insecure && !probe.chainTrusted && !weakVerdict) untrusted(probe, chain, expected, where, add);
  if (!chain.inOrder) {
    add('warn', `${where} serves its chain out of order: ${probe.chain.map((c) => commonName(c.subject)).join(' → ')}.`,
      'Put the certificate first, then each intermediate in issuing order, then (optionally) the root — one file, in that order.');
  }
  if (chain.extra.length) {
    add('warn', `${where} serves ${chain.extra.length} certificate(s) unrelated to its chain: ${joinCapped(chain.extra.map((i) => commonName(probe.chain[i].subject)))}.`,
      'Remove them from tls.crt; only the certificate, its intermediates and optionally the root belong there.');
  }
  issuerMismatch(leaf, probe.chain, expected, where, add);
  if (expectsWildcard(expected) && !wildcardOnly && leafName !== FAKE_CERTIFICATE && probe.hostMatches && !servedIndividually(endpoint, expected)) {
    const d = expected.wildcardDomain;
    if (!d || endpoint.host.endsWith(`.${d}`)) {
      add('warn', `${where} serves an individual certificate, but the inventory configures a wildcard${d ? ` (*.${d})` : ` (secret ${expected.suppliedSecret})`}.`,
        'The ingress still uses its own secret: check that the platform was redeployed with the wildcard settings, then remove the stale secret ("cloudgate regenerate").');
    }
  } else if (!expectsWildcard(expected) && expected.issuerType && wildcardOnly && probe.hostMatches) {
    add('warn', `${where} serves a wildcard certificate (${joinCapped(sanNames(leaf))}), but the inventory configures individual certificates (openstack_helm_ingress_wildcard_domain unset).`,
      'Set openstack_helm_ingress_wildcard_domain (or openstack_helm_ingress_secret_name with issuer none) if the wildcard is intended; otherwise redeploy so each endpoint gets its own certificate.');
  }

  const facts: EndpointFacts = {
    endpoint: where,
    ...(endpoint.address ? { address: endpoint.address } : {}),
    source: endpoint.origin,
    subject: leafName,
    issuer: issuerName,
    names: sanNames(leaf),
    notAfter: notAfter.toISOString(),
    daysLeft: days(left),
    trusted: options.insecure ? 'not checked (--insecure)' : probe.chainTrusted,
    trustStore: probe.trustStore,
    ...(probe.authorizationError ? { verifyError: probe.authorizationError } : {}),
    chain: probe.chain.map((c) => ({ subject: commonName(c.subject), issuer: commonName(c.issuer), notAfter: new Date(c.validTo).toISOString() })),
    chainOrder: chain.inOrder ? 'in order' : 'out of order',
    chainAsServed: probe.chainAsServed,
    protocol: probe.protocol,
    problems: problems.map((p) => `${p.level}: ${p.message}`),
  };
  const worst = problems.find((p) => p.level === 'fail') ?? problems[0];
  if (!worst) {
    const trust = options.insecure ? 'trust not checked (--insecure)' : `trusted (${probe.trustStore})`;
    return {
      status: 'ok',
      message: `${trust}, covers ${endpoint.host}, expires in ${days(left)} days, chain of ${probe.chain.length} in order, issued by ${issuerName}.`,
      facts,
      ...about,
    };
  }
  const others = problems.filter((p) => p !== worst);
  return {
    status: worst.level,
    message: others.length ? `${worst.message} (+${others.length} more: ${others.map((p) => p.message).join(' ')})` : worst.message,
    advice: [worst, ...others].map((p) => p.advice).filter((a, i, all) => all.indexOf(a) === i).join(' '),
    facts,
    ...about,
  };
}

function expiryAdvice(expected: ServedExpectations): string {
  if (expected.issuerType === 'none') {
    return `The platform never renews a supplied wildcard certificate (issuer none): renew it and replace the secret ${expected.suppliedSecret ?? '(openstack_helm_ingress_secret_name)'} before it expires ("cloudgate setup" writes the new Secret manifest).`;
  }
  return 'cert-manager should have renewed it: run "cloudgate doctor --only kube" to see the Certificate and issuer status.';
}

function untrusted(
  probe: TlsProbeResult,
  chain: ReturnType<typeof analyzeChain>,
  expected: ServedExpectations,
  where: string,
  add: (level: Problem['level'], message: string, advice: string) => void,
): void {
  const code = probe.authorizationError ?? 'unknown';
  const last = chain.last;
  const selfSigned = probe.chain.length === 1 && isSelfSigned(probe.chain[0]);
  const level = expected.issuerType === 'self-signed' ? 'warn' : 'fail';
  if (selfSigned || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') {
    add(level, `${where} serves a self-signed certificate, not trusted by ${probe.trustStore}.`,
      expected.issuerType === 'self-signed'
        ? 'Expected with cluster_issuer_type self-signed (development only); pass --ca-file with that certificate to check the rest.'
        : 'Pass --ca-file with the CA that should be trusted, or configure a real issuer (cluster_issuer_type).');
  } else if (INCOMPLETE.has(code) && last && !chain.endsAtRoot) {
    add(level, `The chain served by ${where} ends at "${commonName(last.subject)}", whose issuer "${commonName(last.issuer)}" is neither served nor trusted by ${probe.trustStore}.`,
      'Either an intermediate is missing (serve certificate, then intermediate(s) in tls.crt) or the CA is private (pass --ca-file PEM, or OS_CACERT).');
  } else if (code === 'SELF_SIGNED_CERT_IN_CHAIN' || chain.endsAtRoot) {
    add(level, `The chain served by ${where} ends at the root "${commonName(last?.subject ?? '')}", which ${probe.trustStore} does not trust.`,
      'Pass --ca-file with that root if it is your private CA; otherwise the certificate comes from the wrong issuer.');
  } else {
    add(level, `The certificate of ${where} is not trusted (${code}) by ${probe.trustStore}.`, 'Check the issuer and the served chain; pass --ca-file for a private CA.');
  }
}

function issuerMismatch(
  leaf: X509Certificate,
  chain: X509Certificate[],
  expected: ServedExpectations,
  where: string,
  add: (level: Problem['level'], message: string, advice: string) => void,
): void {
  const type = expected.issuerType;
  if (!type) return;
  const staging = chain.find((c) => /\(STAGING\)/i.test(c.issuer) || /\(STAGING\)/i.test(c.subject));
  if (staging) {
    add('fail', `${where} serves a certificate from an ACME staging issuer ("${commonName(staging.issuer)}"); no client trusts it.`,
      `Point cluster_issuer_acme_server at the production directory (or unset it for the public CA). ${REGENERATE}`);
    return;
  }
  if (commonName(leaf.subject) === FAKE_CERTIFICATE) return;
  const selfSigned = chain.length === 1 && isSelfSigned(leaf);
  if (selfSigned && isOneOf(ISSUER_TYPE_VALUES, type) && ISSUER_TYPES[type].trusted) {
    add('fail', `${where} serves a self-signed certificate, but the inventory configures issuer "${type}".`, `The certificate predates the issuer change or the issuer failed. ${REGENERATE}`);
    return;
  }
  if (type === 'acme' && !expected.acmeServer) {
    const top = chain[analyzeChain(chain).path.at(-1) ?? 0];
    if (!chainsToPublicRoot(top)) {
      add('warn', `${where} serves a certificate issued by "${commonName(leaf.issuer)}", a private CA, but the inventory configures a public ACME CA (cluster_issuer_acme_server unset).`,
        `If an internal ACME server is meant, set cluster_issuer_acme_server; otherwise the certificate predates the issuer change. ${REGENERATE}`);
    }
  }
}
