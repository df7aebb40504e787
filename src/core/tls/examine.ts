/**
 * Runs every certificate check that applies to one input (a supplied wildcard certificate and its
 * key, a CA issuer, a CA bundle) and keeps the parsed material for whoever writes it out.
 */
import { isIssuedBy, label } from './chain.js';
import {
  checkChainComplete,
  checkChainOrder,
  checkIsCa,
  checkKeyMatch,
  checkSelfSigned,
  checkValidity,
  checkWildcardCoverage,
  type CertCheck,
} from './checks.js';
import type { TrustAnchors } from './trust.js';
import { trustStore } from '../net/trust.js';
import { checkStrength } from './strength.js';
import { PemError, parseCertificates, parsePrivateKey, type ParsedCertificate, type ParsedKey } from './pem.js';

/**
 * wildcard: an endpoint certificate (certificate, intermediate(s), root);
 * ca-issuer: a CA that signs certificates (issuer, intermediate(s), root);
 * ca-bundle: CA certificates to trust, in any grouping.
 */
export type CertificateRole = 'wildcard' | 'ca-issuer' | 'ca-bundle';

export interface ExamineInput {
  certPem: string;
  /** Names the certificate input in messages: a file path or a variable. */
  certSource: string;
  keyPem?: string;
  keySource?: string;
  role: CertificateRole;
  domain?: string;
  now: Date;
  /** How to apply the computed order where this runs (a flag, an edit). */
  fixHint: string;
  renewAdvice: string;
  /** Use the computed order instead of failing on a wrong one. */
  fixOrder?: boolean;
  /** The roots a chain may end at (wildcard role): a run's trust store's; this machine's when absent (setup). */
  anchors?: TrustAnchors;
}

export interface Examination {
  checks: CertCheck[];
  /** Every certificate read, as given (none when the input could not be parsed). */
  certificates?: ParsedCertificate[];
  /** The chain to use, in the right order, when it could be established. */
  ordered?: ParsedCertificate[];
  key?: ParsedKey;
  reordered: boolean;
}

const EXPECTED: Record<CertificateRole, string> = {
  wildcard: 'certificate, intermediate(s), root',
  'ca-issuer': 'issuer, intermediate(s), root',
  'ca-bundle': 'certificate, then its issuer',
};

const ROLE_WORD: Record<CertificateRole, string> = {
  wildcard: 'certificate',
  'ca-issuer': 'issuer certificate',
  'ca-bundle': 'certificate',
};

export function examine(input: ExamineInput): Examination {
  const checks: CertCheck[] = [];
  let certificates: ParsedCertificate[] | undefined;
  let key: ParsedKey | undefined;
  try {
    const parsed = parseCertificates(input.certPem, input.certSource);
    certificates = parsed.certificates;
    const extra = parsed.skippedKeys ? ` (its ${parsed.skippedKeys} private key block(s) are ignored here)` : '';
    checks.push({
      name: 'parse',
      status: 'ok',
      message: `${input.certSource}: ${certificates.length} certificate(s) read${extra}.`,
    });
  } catch (error) {
    checks.push(fromError('parse', error));
  }
  if (input.keyPem !== undefined) {
    const keySource = input.keySource ?? 'the private key';
    try {
      key = parsePrivateKey(input.keyPem, keySource);
      checks.push({ name: 'key', status: 'ok', message: `${keySource}: ${key.description} private key read.` });
    } catch (error) {
      checks.push(fromError('key', error));
    }
  }
  if (!certificates) return { checks, key, reordered: false };

  let ordered: ParsedCertificate[] | undefined;
  let reordered = false;
  let chainInOrder = true;
  if (input.role === 'ca-bundle' && !certificates.some((c) => certificates.some((o) => o !== c && isIssuedBy(o, c)))) {
    checks.push({
      name: 'chain-order',
      status: 'ok',
      message: `${input.certSource}: ${certificates.length} independent CA certificate(s).`,
    });
    ordered = certificates;
  } else {
    const order = checkChainOrder(certificates, input.certSource, {
      key: key?.key,
      expected: EXPECTED[input.role],
      fixHint: input.fixHint,
    });
    ordered = order.ordered;
    chainInOrder = order.check.status === 'ok';
    if (order.check.status === 'fail' && ordered && input.fixOrder) {
      reordered = true;
      checks.push({
        ...order.check,
        status: 'warn',
        message: `${input.certSource}: the chain was out of order; using ${ordered.map(label).join(', ')}.`,
        advice: undefined,
      });
    } else checks.push(order.check);
  }

  // The key is matched against the first certificate as given (that is what the ingress reads);
  // the other checks look at the right order when it is known, so they speak of the real leaf.
  const effective = ordered ?? certificates;
  const first = effective[0];
  const given = reordered ? first : certificates[0];
  if (key) {
    const consequence =
      input.role === 'wildcard'
        ? 'With a key that does not match, ingress-nginx serves its "Fake Certificate".'
        : undefined;
    checks.push(
      checkKeyMatch(given, certificates, key, {
        cert: input.certSource,
        key: input.keySource ?? 'the private key',
        consequence,
        chainInOrder: chainInOrder || reordered,
        role: ROLE_WORD[input.role],
      }),
    );
  }
  if (input.role === 'wildcard') {
    checks.push(
      ordered
        ? checkChainComplete(ordered, input.certSource, input.anchors ?? trustStore().anchors())
        : {
            name: 'chain-complete',
            status: 'skip',
            message: 'Not checked: the chain order could not be established (see chain-order).',
          },
    );
    checks.push(checkWildcardCoverage(first, input.domain));
    checks.push(checkSelfSigned(first));
  }
  if (input.role === 'ca-issuer') checks.push(checkIsCa(first, input.certSource));
  checks.push(checkStrength(effective, input.certSource));
  checks.push(checkValidity(effective, input.now, input.renewAdvice));
  return { checks, certificates, ordered, key, reordered };
}

function fromError(name: string, error: unknown): CertCheck {
  if (error instanceof PemError) return { name, status: 'fail', message: error.message, advice: error.advice };
  throw error;
}

export const failed = (checks: CertCheck[]) => checks.filter((c) => c.status === 'fail');
