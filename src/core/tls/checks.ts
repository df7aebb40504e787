/**
 * The certificate checks, one function each. Each returns a `CertCheck`: the doctor shows it as
 * `certificate.<name>`, setup and validation turn it into a finding.
 */
import type { KeyObject } from 'node:crypto';
import { analyseOrder, isSelfSigned, label, sameKey } from './chain.js';
import { basicConstraintsCa, keyUsage } from './extensions.js';
import { altNames, commonName, type ParsedCertificate, type ParsedKey } from './pem.js';
import { trustedIssuerOf, type TrustAnchors } from './trust.js';
import { joinCapped } from '../bounded.js';

/** `skip`: the check could not be made because another of the same file failed (chain-complete without an order). */
export type CertCheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

/** What --verbose and --json show of a certificate check, one member per thing it looked at. */
export interface CertFacts {
  problems?: string[];
  fixedOrder?: number[];
  keyFile?: string;
  certificate?: string;
  keyBelongsTo?: string;
  dnsNames?: string[];
  notBefore?: string;
  notAfter?: string;
  daysLeft?: number;
  chain?: { block: number; name: string; notAfter: string; daysLeft: number }[];
  ca?: boolean;
  keyUsage?: readonly string[] | string;
  last?: string;
  issuer?: string;
  trustStores?: string;
  weaknesses?: string[];
}

export interface CertCheck {
  /** Stable name: parse, key, chain-order, key-match, wildcard-san, validity, ca, self-signed. */
  name: string;
  status: CertCheckStatus;
  message: string;
  advice?: string;
  facts?: CertFacts;
}

export const DAY_MS = 86_400_000;
export const EXPIRY_WARNING_DAYS = 30;

export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
export const notAfter = (c: ParsedCertificate) => new Date(c.x509.validTo);
export const notBefore = (c: ParsedCertificate) => new Date(c.x509.validFrom);

export interface OrderCheck {
  check: CertCheck;
  /** The chain to use: the given one when in order, the computed one when it could be fixed. */
  ordered?: ParsedCertificate[];
}

/**
 * `expected` describes the required order for the message; `fixHint` tells how to apply the
 * computed order where the check runs (a flag of setup, or editing a variable).
 */
export function checkChainOrder(
  certs: ParsedCertificate[],
  source: string,
  options: { key?: KeyObject; expected: string; fixHint: string },
): OrderCheck {
  const result = analyseOrder(certs, options.key);
  const count = `${certs.length} certificate${certs.length === 1 ? '' : 's'}`;
  if (result.inOrder) {
    return {
      check: {
        name: 'chain-order',
        status: 'ok',
        message: `${source}: ${count} in the right order (${certs.map((c) => c.name).join(' → ')}).`,
      },
      ordered: certs,
    };
  }
  const fixed = result.fixed;
  const facts = { problems: result.problems, fixedOrder: fixed?.map((c) => c.index) };
  if (!fixed) {
    return {
      check: {
        name: 'chain-order',
        status: 'fail',
        message: `${source}: the chain is not in the order ${options.expected}, and no single chain links all its certificates: ${result.problems.join(' ')}`,
        advice:
          'Keep only the certificate and the CA certificates that issued it, in the order ' + `${options.expected}.`,
        facts,
      },
    };
  }
  return {
    check: {
      name: 'chain-order',
      status: 'fail',
      message: `${source}: the chain is not in the order ${options.expected}: ${result.problems.join(' ')} The right order is ${fixed.map(label).join(', ')}.`,
      advice: options.fixHint,
      facts,
    },
    ordered: fixed,
  };
}

/**
 * `consequence` says what a mismatch breaks where this certificate is used; `chainInOrder` is the
 * chain-order verdict: only a chain out of order makes "the key of another certificate" an order problem.
 */
export function checkKeyMatch(
  first: ParsedCertificate,
  all: ParsedCertificate[],
  key: ParsedKey,
  sources: { cert: string; key: string; consequence?: string; chainInOrder?: boolean; role?: string },
): CertCheck {
  const [certSource, keySource] = [sources.cert, sources.key];
  if (sameKey(first, key.key)) {
    return {
      name: 'key-match',
      status: 'ok',
      message: `The ${key.description} key in ${keySource} belongs to ${label(first)} of ${certSource}.`,
    };
  }
  const owner = all.find((c) => c !== first && sameKey(c, key.key));
  const what = sources.role ?? 'certificate';
  const facts = { keyFile: keySource, certificate: label(first), ...(owner ? { keyBelongsTo: label(owner) } : {}) };
  if (owner && sources.chainInOrder === false) {
    return {
      name: 'key-match',
      status: 'fail',
      message: `The key in ${keySource} does not belong to the first certificate of ${certSource} (${label(first)}) but to ${label(owner)}: the chain is out of order.`,
      advice: `Put ${label(owner)} first; the chain-order check gives the whole order.`,
      facts,
    };
  }
  return {
    name: 'key-match',
    status: 'fail',
    message: owner
      ? `The key in ${keySource} (${key.description}) does not match the ${what} ${label(first)} of ${certSource}: it is the key of ${label(owner)}, another certificate of the chain.`
      : `The key in ${keySource} (${key.description}) does not belong to any certificate in ${certSource}; it should match the ${what} ${label(first)}.`,
    advice: `Give the private key of ${label(first)} (the one generated with its request) in ${keySource}, or the certificate that belongs to this key.${sources.consequence ? ` ${sources.consequence}` : ''}`,
    facts,
  };
}

export function dnsNames(cert: Pick<ParsedCertificate, 'x509'>): string[] {
  return altNames(cert.x509).dns;
}

export const normaliseDomain = (domain: string) => domain.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');

/** `*.<domain>` must be a subjectAltName; it covers one label only, never the bare domain. */
export function checkWildcardCoverage(leaf: ParsedCertificate, domain: string | undefined): CertCheck {
  const names = dnsNames(leaf);
  const facts = { dnsNames: names };
  if (names.length === 0) {
    return {
      name: 'wildcard-san',
      status: 'fail',
      message: `${label(leaf)} has no DNS subjectAltName; clients ignore the common name.`,
      advice: `Get a certificate with subjectAltName DNS:*.${domain ? normaliseDomain(domain) : '<domain>'}.`,
      facts,
    };
  }
  const wildcards = names.filter((n) => n.startsWith('*.'));
  if (!domain) {
    if (wildcards.length === 0) {
      return {
        name: 'wildcard-san',
        status: 'warn',
        message: `${label(leaf)} is not a wildcard certificate: it names only ${joinCapped(names)}.`,
        advice: 'Every API endpoint needs its own name in it; a wildcard (*.<domain>) covers them all.',
        facts,
      };
    }
    return {
      name: 'wildcard-san',
      status: 'ok',
      message: `Covers ${joinCapped(wildcards)} (one label each).${bareNote(names, wildcards[0].slice(2))}`,
      facts,
    };
  }
  const d = normaliseDomain(domain);
  if (names.includes(`*.${d}`)) {
    return {
      name: 'wildcard-san',
      status: 'ok',
      message: `Covers *.${d}: any single label, e.g. keystone.${d}.${bareNote(names, d)}`,
      facts,
    };
  }
  const deeper = wildcards.filter((w) => w.endsWith(`.${d}`));
  const reason = deeper.length
    ? `it names ${joinCapped(deeper)}, which covers names one level deeper only (a wildcard covers one label)`
    : `it names ${joinCapped(names)}`;
  return {
    name: 'wildcard-san',
    status: 'fail',
    message: `${label(leaf)} does not cover *.${d}: ${reason}.`,
    advice: `Get a certificate with subjectAltName DNS:*.${d}, or correct the domain.`,
    facts,
  };
}

function bareNote(names: string[], domain: string): string {
  return names.includes(domain)
    ? ` The bare domain ${domain} is named too.`
    : ` The bare domain ${domain} itself is NOT covered.`;
}

/** Every certificate of the chain: not yet valid or expired fails, within 30 days warns. */
export function checkValidity(certs: ParsedCertificate[], now: Date, renewAdvice: string): CertCheck {
  const leaf = certs[0];
  const days = (c: ParsedCertificate) => Math.floor((notAfter(c).getTime() - now.getTime()) / DAY_MS);
  const facts = {
    notBefore: notBefore(leaf).toISOString(),
    notAfter: notAfter(leaf).toISOString(),
    daysLeft: days(leaf),
    chain: certs.map((c) => ({ block: c.index, name: c.name, notAfter: notAfter(c).toISOString(), daysLeft: days(c) })),
  };
  const early = certs.find((c) => notBefore(c) > now);
  if (early) {
    return {
      name: 'validity',
      status: 'fail',
      message: `${label(early)} is not valid yet: valid from ${notBefore(early).toISOString()}.`,
      advice: 'Check the clock of this machine, or wait until that date.',
      facts,
    };
  }
  const expired = certs.find((c) => notAfter(c) <= now);
  if (expired) {
    return {
      name: 'validity',
      status: 'fail',
      message: `${label(expired)} expired on ${isoDate(notAfter(expired))} (${Math.floor((now.getTime() - notAfter(expired).getTime()) / DAY_MS)} days ago).`,
      advice: renewAdvice,
      facts,
    };
  }
  const soonest = [...certs].sort((a, b) => notAfter(a).getTime() - notAfter(b).getTime())[0];
  if (days(soonest) < EXPIRY_WARNING_DAYS) {
    return {
      name: 'validity',
      status: 'warn',
      message: `${label(soonest)} expires on ${isoDate(notAfter(soonest))}, in ${days(soonest)} days.`,
      advice: renewAdvice,
      facts,
    };
  }
  return {
    name: 'validity',
    status: 'ok',
    message: `Valid until ${isoDate(notAfter(leaf))} (${days(leaf)} days left).`,
    facts,
  };
}

/** A CA issuer must be allowed to sign certificates: basicConstraints CA and keyUsage keyCertSign. */
export function checkIsCa(cert: ParsedCertificate, source: string): CertCheck {
  const usages = keyUsage(cert.x509.raw);
  const ca = basicConstraintsCa(cert.x509.raw);
  const facts = { ca, keyUsage: usages ?? 'absent' };
  if (!ca) {
    return {
      name: 'ca',
      status: 'fail',
      message: `${source}: ${label(cert)} is not a CA certificate (basicConstraints CA is not true), so it cannot issue certificates.`,
      advice: 'Give the CA certificate that is to sign the endpoint certificates, not a server certificate.',
      facts,
    };
  }
  if (usages && !usages.includes('keyCertSign')) {
    return {
      name: 'ca',
      status: 'fail',
      message: `${source}: ${label(cert)} is a CA but its key usage (${usages.join(', ')}) lacks keyCertSign.`,
      advice: 'Issue the CA certificate with key usage keyCertSign (and cRLSign).',
      facts,
    };
  }
  return { name: 'ca', status: 'ok', message: `${label(cert)} is a CA allowed to sign certificates.`, facts };
}

export function checkSelfSigned(leaf: ParsedCertificate): CertCheck {
  if (isSelfSigned(leaf)) {
    return {
      name: 'self-signed',
      status: 'warn',
      message: `${label(leaf)} is self-signed: browsers and API clients will not trust it.`,
      advice:
        'Use a certificate from a CA your clients trust, or distribute this certificate to every client (OS_CACERT).',
    };
  }
  const issuer = commonName(leaf.x509.issuer);
  return { name: 'self-signed', status: 'ok', message: `Issued by ${issuer}.` };
}

/**
 * The chain (in the right order) must lead to a root: its last certificate is a root itself, is
 * signed by a root this machine trusts, or is an intermediate CA (the root may be left out and
 * belong to the clients' store). A lone endpoint certificate whose issuer is nowhere makes the
 * ingress serve an incomplete chain, which clients refuse ("unable to get local issuer certificate").
 */
export function checkChainComplete(chain: ParsedCertificate[], source: string, anchors: TrustAnchors): CertCheck {
  const last = chain[chain.length - 1];
  const facts = { last: label(last), issuer: commonName(last.x509.issuer), trustStores: anchors.description };
  if (isSelfSigned(last)) {
    return {
      name: 'chain-complete',
      status: 'ok',
      message: `${source}: the chain ends at the root ${label(last)}, included in the file.`,
      facts,
    };
  }
  const anchor = trustedIssuerOf(last.x509, anchors);
  if (anchor) {
    return {
      name: 'chain-complete',
      status: 'ok',
      message: `${source}: the chain ends at ${label(last)}, issued by the trusted root ${commonName(anchor.subject)}.`,
      facts,
    };
  }
  if (basicConstraintsCa(last.x509.raw)) {
    return {
      name: 'chain-complete',
      status: 'ok',
      message: `${source}: the chain ends at the CA ${label(last)}; its issuer ${commonName(last.x509.issuer)} is not in the file and must be in the clients' trust store.`,
      facts,
    };
  }
  return {
    name: 'chain-complete',
    status: 'fail',
    message: `${source}: ${chain.length === 1 ? 'the file holds only the certificate' : `the chain stops at ${label(last)}`}; its issuer "${commonName(last.x509.issuer)}" is neither in the file nor a root trusted here (${anchors.description}). The ingress would serve an incomplete chain, which clients refuse.`,
    advice: `Append the intermediate certificate(s) your CA gave with it (often chain.pem or ca-bundle.crt) after the certificate, in the order certificate, intermediate(s), root. If "${commonName(last.x509.issuer)}" is a private root, append it too.`,
    facts,
  };
}
