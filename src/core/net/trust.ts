/**
 * Which CAs a TLS connection trusts. Without a CA file: Node's default store, which holds Node's
 * bundled roots and the NODE_EXTRA_CA_CERTS file (loaded by Node itself at start-up). With a CA file
 * (--ca-file / OS_CACERT): a store of the bundled roots, NODE_EXTRA_CA_CERTS and that file, since a
 * `ca` option replaces Node's default store instead of adding to it.
 */
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { readRegularFileSync } from '../safe-read.js';
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
    text = readRegularFileSync(path, { what: `the CA file (${origin})` });
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
 * The trust store for a CA file's PEM text, or undefined (Node's default store) without one: Node's bundled
 * roots, NODE_EXTRA_CA_CERTS and the file, through the public `ca` option. (Adding to the context's own
 * store with the internal `addCACert` halves the 40-90 ms this costs, but it is no public API, and the
 * sign-in target is not reached with it either: not kept.)
 */
export function contextTrusting(caPem: string | undefined): SecureContext | undefined {
  if (caPem === undefined) return undefined;
  return createSecureContext({ ca: [...rootCertificates, ...extraCaCerts(), caPem] });
}
