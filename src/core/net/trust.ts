/**
 * Which CAs a TLS connection trusts beyond Node's default store: the --ca-file / OS_CACERT file, and
 * NODE_EXTRA_CA_CERTS when Node did not load it at start-up (see extra-ca-env.ts).
 */
import { createSecureContext, type SecureContext } from 'node:tls';
import { readRegularFileSync } from '../safe-read.js';
import { extraCaCertsToLoad } from './extra-ca-env.js';

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
    const code = / (E[A-Z]+)\.$/.exec((error as Error).message)?.[1];
    throw new CaFileError(path, origin, code ? `Cannot read the CA file ${path} (${origin}): ${code}.` : (error as Error).message, `Check the path given to ${origin}.`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new CaFileError(path, origin, `The CA file ${path} (${origin}) holds no PEM certificate.`, 'Give a file with one or more "-----BEGIN CERTIFICATE-----" blocks.');
  }
  return text;
}

const extraCache = new Map<string, string | undefined>();

/**
 * The NODE_EXTRA_CA_CERTS bundle, read once. Like Node at start-up, a file that cannot be read is
 * ignored with a warning rather than failing every connection.
 */
function extraCaBundle(): string | undefined {
  const path = process.env.NODE_EXTRA_CA_CERTS;
  if (!path) return undefined;
  if (!extraCache.has(path)) {
    let pem: string | undefined;
    try {
      pem = readCaBundle(path, 'NODE_EXTRA_CA_CERTS');
    } catch (error) {
      const e = error as CaFileError;
      // Worded as Node's own start-up warning, on stderr (stdout may be --json).
      process.stderr.write(`Warning: Ignoring extra certs from \`${path}\`, load failed: ${e.message} ${e.advice}\n`);
    }
    extraCache.set(path, pem);
  }
  return extraCache.get(path);
}

/**
 * The PEM bundles to add to Node's default store so that it trusts NODE_EXTRA_CA_CERTS and the given
 * CA file. Adding a CA makes Node copy its bundled roots into a new store without the
 * NODE_EXTRA_CA_CERTS it loaded itself, so with a CA file the extra bundle is always added again.
 */
export function bundlesToTrust(caPem?: string): string[] {
  const extra = caPem !== undefined || extraCaCertsToLoad() ? extraCaBundle() : undefined;
  return [extra, caPem].filter((pem): pem is string => pem !== undefined);
}

/** Node's default store plus the given PEM bundles (not `ca: [...rootCertificates, pem]`, which parses every root again). */
export function contextTrusting(pems: string[]): SecureContext {
  const context = createSecureContext();
  const native = (context as unknown as { context: { addCACert(pem: string): void } }).context;
  for (const pem of pems) native.addCACert(pem);
  return context;
}
