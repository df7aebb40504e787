/**
 * Which CAs a TLS connection trusts. Without a CA file: Node's default store, which holds Node's
 * bundled roots and the NODE_EXTRA_CA_CERTS file (loaded by Node itself at start-up). With a CA file
 * (--ca-file / OS_CACERT): that file, Node's bundled roots and NODE_EXTRA_CA_CERTS (see `Trust`).
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { readOwnedFileSync } from '../safe-read.js';
import { messageOf } from '../errors.js';

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
    throw new CaFileError(path, origin, code ? `Cannot read the CA file ${path} (${origin}): ${code}.` : messageOf(error), `Check the path given to ${origin}.`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new CaFileError(path, origin, `The CA file ${path} (${origin}) holds no PEM certificate.`, 'Give a file with one or more "-----BEGIN CERTIFICATE-----" blocks.');
  }
  return text;
}

/** NODE_EXTRA_CA_CERTS as Node loaded it: a file it could not read was already reported by Node and is skipped. */
function extraCaCerts(): string[] {
  const path = process.env.NODE_EXTRA_CA_CERTS;
  if (!path) return [];
  try {
    return [readFileSync(path, 'utf8')];
  } catch {
    return [];
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

export function trustFor(caPem: string): Trust {
  let wide: SecureContext | undefined;
  return {
    narrow: createSecureContext({ ca: caPem }),
    wide: () => (wide ??= createSecureContext({ ca: [...rootCertificates, ...extraCaCerts(), caPem] })),
  };
}

/** OpenSSL's verdicts for a chain that no trusted CA signed: the ones more CAs could change. */
export const UNKNOWN_CA_CODES: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);
