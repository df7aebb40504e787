/**
 * Which CAs a run trusts, in one store the run owns (made on first use, dropped with the run): the CA
 * file given (--ca-file, OS_CACERT, clouds.yaml cacert), read once; NODE_EXTRA_CA_CERTS, read here and
 * nowhere else; Node's bundled roots, parsed once per process (core/tls/roots.ts). Connections use its
 * secure contexts; the certificate checks use its anchors ("does this chain reach a root without help?").
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { readOwnedFileSync } from '../safe-read.js';
import { messageOf } from '../errors.js';
import { serviceKey, type RunServices } from '../doctor/services.js';
import { bundledRoots, certificatesIn } from '../tls/roots.js';
import type { TrustAnchors } from '../tls/trust.js';

export class CaFileError extends Error {
  constructor(
    readonly path: string,
    readonly origin: string,
    message: string,
    readonly advice: string,
  ) {
    super(message);
    this.name = 'CaFileError';
  }
}

/** The PEM text of a CA file, or a CaFileError naming the file and where it came from. */
export function readCaBundle(path: string, origin: string): string {
  let text: string;
  try {
    text = readOwnedFileSync(path, { what: `the CA file (${origin})` });
  } catch (error) {
    const code = / (E[A-Z]+)\.$/.exec(messageOf(error))?.[1];
    throw new CaFileError(
      path,
      origin,
      code ? `Cannot read the CA file ${path} (${origin}): ${code}.` : messageOf(error),
      `Check the path given to ${origin}.`,
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new CaFileError(
      path,
      origin,
      `The CA file ${path} (${origin}) holds no PEM certificate.`,
      'Give a file with one or more "-----BEGIN CERTIFICATE-----" blocks.',
    );
  }
  return text;
}

/**
 * NODE_EXTRA_CA_CERTS as Node loaded it at start-up (the one place it is read): its path and text; a
 * file Node could not read was already reported by Node and is left out.
 */
function extraCaCerts(): { path: string; pem?: string } | undefined {
  const path = process.env.NODE_EXTRA_CA_CERTS;
  if (!path) return undefined;
  try {
    return { path, pem: readFileSync(path, 'utf8') };
  } catch {
    return { path };
  }
}

/**
 * What a connection trusts when a CA file is given: the file, then Node's bundled roots and
 * NODE_EXTRA_CA_CERTS beside it. A `ca` option replaces Node's default store, so trusting both takes
 * one store of all of them, and building it (parsing about 140 roots) costs 40-90 ms: more than the
 * five requests of a sign-in. The file's CAs alone cost almost nothing. So a connection first trusts
 * the file alone (`narrow`), and only a chain that no CA of the file signed (an unknown-CA verdict,
 * `UNKNOWN_CA_CODES`) is tried again against the whole store (`wide`, built once, on first need).
 * Together they accept exactly what the whole store accepts: adding CAs never rejects a chain.
 */
export interface Trust {
  readonly narrow: SecureContext;
  wide(): SecureContext;
}

export interface TrustStore {
  /** The CA file given, when one is. */
  readonly caFile?: string;
  /** The stores a connection trusts, in words: `system + NODE_EXTRA_CA_CERTS /x.pem + /ca.pem`. */
  readonly description: string;
  /** The CA file's contexts; undefined without a CA file (Node's default store). Throws CaFileError. */
  contexts(): Trust | undefined;
  /** The CA file's text; undefined without one. Throws CaFileError. */
  caPem(): string | undefined;
  /** Every certificate the store trusts, parsed (a damaged block trusts nothing). */
  anchors(): TrustAnchors;
}

/** A store for `caFile` (named by `origin` in errors); nothing is read until it is asked for. */
export function trustStore(caFile?: string, origin = '--ca-file / OS_CACERT'): TrustStore {
  const extra = extraCaCerts();
  let pem: string | undefined;
  let contexts: Trust | undefined;
  let anchors: TrustAnchors | undefined;
  const caPem = () => (caFile ? (pem ??= readCaBundle(caFile, origin)) : undefined);
  return {
    ...(caFile ? { caFile } : {}),
    description: ['system', ...(extra ? [`NODE_EXTRA_CA_CERTS ${extra.path}`] : []), ...(caFile ? [caFile] : [])].join(
      ' + ',
    ),
    caPem,
    contexts() {
      const file = caPem();
      if (file === undefined) return undefined;
      if (contexts) return contexts;
      let wide: SecureContext | undefined;
      const all = [...rootCertificates, ...(extra?.pem ? [extra.pem] : []), file];
      contexts = { narrow: createSecureContext({ ca: file }), wide: () => (wide ??= createSecureContext({ ca: all })) };
      return contexts;
    },
    anchors() {
      if (anchors) return anchors;
      let file: string | undefined;
      try {
        file = caPem();
      } catch {
        file = undefined; // An unreadable CA file trusts nothing here; the connections say why.
      }
      const stores = [
        "Node's bundled roots",
        ...(extra ? [`NODE_EXTRA_CA_CERTS (${extra.path})`] : []),
        ...(caFile ? [caFile] : []),
      ];
      anchors = {
        certificates: [...bundledRoots(), ...certificatesIn(extra?.pem ?? ''), ...certificatesIn(file ?? '')],
        description: stores.join(', '),
      };
      return anchors;
    },
  };
}

const TRUST = serviceKey<TrustStore>('trust store');

/** The run's trust store, for its CA file. */
export function trustOf(services: RunServices): TrustStore {
  return services.own(TRUST, () => trustStore(services.network.caFile));
}

/** OpenSSL's verdicts for a chain that no trusted CA signed: the ones more CAs could change. */
export const UNKNOWN_CA_CODES: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);
