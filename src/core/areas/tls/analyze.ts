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
import { SERVED, UNTRUSTED, WRONG_ISSUER } from './messages.js';

const DAY = 86_400_000;
const FAKE_CERTIFICATE = 'Kubernetes Ingress Controller Fake Certificate';
const INCOMPLETE = new Set([
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

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
  if (!leaf) return { status: 'fail', message: SERVED.noCertificate(where), advice: SERVED.checkIngressTls, ...about };
  const problems: Problem[] = [];
  const add = (level: Problem['level'], message: string, advice: string) => problems.push({ level, message, advice });
  const leafName = commonName(leaf.subject);
  const issuerName = commonName(leaf.issuer);
  const chain = analyzeChain(probe.chain);
  const notAfter = new Date(leaf.validTo);
  const left = notAfter.getTime() - now.getTime();
  const wildcardOnly = !sanNames(leaf).includes(endpoint.host) && sanNames(leaf).some((n) => n.startsWith('*.'));

  if (leafName === FAKE_CERTIFICATE) {
    add('fail', SERVED.fakeCertificate(where, FAKE_CERTIFICATE), SERVED.fakeCertificateFix);
  }
  if (left <= 0) {
    add('fail', SERVED.expired(where, notAfter.toISOString().slice(0, 10)), expiryAdvice(expected));
  } else if (new Date(leaf.validFrom).getTime() > now.getTime()) {
    add('fail', SERVED.notYetValid(where, new Date(leaf.validFrom).toISOString()), SERVED.checkClocks);
  } else if (left < EXPIRY_WARNING_DAYS * DAY) {
    add('warn', SERVED.expiresSoon(where, days(left), notAfter.toISOString().slice(0, 10)), expiryAdvice(expected));
  }
  if (!probe.hostMatches) {
    add(
      'fail',
      SERVED.hostNotCovered(where, endpoint.host, joinCapped(sanNames(leaf)) || SERVED.onlyCommonName(leafName)),
      wildcardOnly ? SERVED.wildcardCoversOneLabel : SERVED.serveCoveringCertificate,
    );
  }
  // Weak cryptography is said as such: OpenSSL's verdict on it (UNSPECIFIED, CA_MD_TOO_WEAK) is no unknown CA.
  const weak = chainWeaknesses(probe.chain);
  if (weak.length) {
    add(
      'fail',
      SERVED.weakCrypto(where, describeWeaknesses(weak)),
      SERVED.weakCryptoFix([...new Set(weak.map((w) => w.fix))].join('; ')),
    );
  }
  const weakVerdict =
    weak.length > 0 && ['UNSPECIFIED', ...WEAK_CRYPTO_ERRORS].includes(probe.authorizationError ?? '');
  if (!options.insecure && !probe.chainTrusted && !weakVerdict) untrusted(probe, chain, expected, where, add);
  if (!chain.inOrder) {
    add('warn', SERVED.outOfOrder(where, probe.chain.map((c) => commonName(c.subject)).join(' → ')), SERVED.putInOrder);
  }
  if (chain.extra.length) {
    add(
      'warn',
      SERVED.unrelated(
        where,
        chain.extra.length,
        joinCapped(chain.extra.map((i) => commonName(probe.chain[i].subject))),
      ),
      SERVED.removeUnrelated,
    );
  }
  issuerMismatch(leaf, probe.chain, expected, where, add);
  if (
    expectsWildcard(expected) &&
    !wildcardOnly &&
    leafName !== FAKE_CERTIFICATE &&
    probe.hostMatches &&
    !servedIndividually(endpoint, expected)
  ) {
    const d = expected.wildcardDomain;
    if (!d || endpoint.host.endsWith(`.${d}`)) {
      add(
        'warn',
        SERVED.individualNotWildcard(where, d ? `*.${d}` : `secret ${expected.suppliedSecret}`),
        SERVED.staleIndividualSecret,
      );
    }
  } else if (!expectsWildcard(expected) && expected.issuerType && wildcardOnly && probe.hostMatches) {
    add('warn', SERVED.wildcardNotIndividual(where, joinCapped(sanNames(leaf))), SERVED.wildcardIntended);
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
    chain: probe.chain.map((c) => ({
      subject: commonName(c.subject),
      issuer: commonName(c.issuer),
      notAfter: new Date(c.validTo).toISOString(),
    })),
    chainOrder: chain.inOrder ? 'in order' : 'out of order',
    chainAsServed: probe.chainAsServed,
    protocol: probe.protocol,
    problems: problems.map((p) => `${p.level}: ${p.message}`),
  };
  const worst = problems.find((p) => p.level === 'fail') ?? problems[0];
  if (!worst) {
    const trust = options.insecure ? SERVED.trustNotChecked : SERVED.trustedBy(probe.trustStore);
    return {
      status: 'ok',
      message: SERVED.healthy(trust, endpoint.host, days(left), probe.chain.length, issuerName),
      facts,
      ...about,
    };
  }
  const others = problems.filter((p) => p !== worst);
  return {
    status: worst.level,
    message: others.length
      ? SERVED.andMore(worst.message, others.length, others.map((p) => p.message).join(' '))
      : worst.message,
    advice: [worst, ...others]
      .map((p) => p.advice)
      .filter((a, i, all) => all.indexOf(a) === i)
      .join(' '),
    facts,
    ...about,
  };
}

function expiryAdvice(expected: ServedExpectations): string {
  if (expected.issuerType === 'none') {
    return SERVED.suppliedNeverRenewed(expected.suppliedSecret);
  }
  return SERVED.certManagerShouldRenew;
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
    add(
      level,
      UNTRUSTED.selfSigned(where, probe.trustStore),
      expected.issuerType === 'self-signed' ? UNTRUSTED.selfSignedExpected : UNTRUSTED.selfSignedFix,
    );
  } else if (INCOMPLETE.has(code) && last && !chain.endsAtRoot) {
    add(
      level,
      UNTRUSTED.issuerUnknown(where, commonName(last.subject), commonName(last.issuer), probe.trustStore),
      UNTRUSTED.intermediateOrPrivateCa,
    );
  } else if (code === 'SELF_SIGNED_CERT_IN_CHAIN' || chain.endsAtRoot) {
    add(
      level,
      UNTRUSTED.rootNotTrusted(where, commonName(last?.subject ?? ''), probe.trustStore),
      UNTRUSTED.passPrivateRoot,
    );
  } else {
    add(level, UNTRUSTED.notTrusted(where, code, probe.trustStore), UNTRUSTED.checkIssuerAndChain);
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
    add('fail', WRONG_ISSUER.staging(where, commonName(staging.issuer)), WRONG_ISSUER.useProduction);
    return;
  }
  if (commonName(leaf.subject) === FAKE_CERTIFICATE) return;
  const selfSigned = chain.length === 1 && isSelfSigned(leaf);
  if (selfSigned && isOneOf(ISSUER_TYPE_VALUES, type) && ISSUER_TYPES[type].trusted) {
    add('fail', WRONG_ISSUER.selfSigned(where, type), WRONG_ISSUER.predatesChange);
    return;
  }
  if (type === 'acme' && !expected.acmeServer) {
    const top = chain[analyzeChain(chain).path.at(-1) ?? 0];
    if (!chainsToPublicRoot(top)) {
      add('warn', WRONG_ISSUER.privateCa(where, commonName(leaf.issuer)), WRONG_ISSUER.internalAcme);
    }
  }
}
