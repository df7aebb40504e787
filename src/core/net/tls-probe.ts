/**
 * One TLS handshake against host:port, reporting what the server presents rather than failing on it:
 * the chain exactly as served (order included), whether it is trusted (and by which CA store), and
 * whether it names the host. Node's own `getPeerCertificate(true)` re-sorts the chain by issuer, so
 * the served order is read from the handshake bytes (see served-chain.ts).
 */
import { X509Certificate } from 'node:crypto';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type DetailedPeerCertificate, type SecureContext, type TLSSocket } from 'node:tls';
import { withDeadline } from './deadline.js';
import { HandshakeTap } from './handshake-certificates.js';
import { CaFileError, trustStore as systemTrust, UNKNOWN_CA_CODES, type Trust, type TrustStore } from './trust.js';
import { messageOf } from '../errors.js';

export interface TlsProbeOptions {
  host: string;
  port: number;
  /** SNI name and the name the certificate must cover; defaults to the host (no SNI for an IP address). */
  servername?: string;
  /** The run's trust store (its CA file beside the system store and NODE_EXTRA_CA_CERTS); the system store alone when absent. */
  trust?: TrustStore;
  /** Skip trust evaluation; the chain is still read and reported. */
  insecure?: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface TlsProbeResult {
  /** Certificates as served, leaf first. */
  chain: X509Certificate[];
  /** False when `chain` could not be read from the handshake and was rebuilt by issuer order instead. */
  chainAsServed: boolean;
  /** Chain verified against the trust store and the leaf names the host (Node's definition). */
  authorized: boolean;
  /** OpenSSL's or Node's code when not authorized, e.g. `UNABLE_TO_VERIFY_LEAF_SIGNATURE`. */
  authorizationError?: string;
  /** Chain verified against the trust store, regardless of the host name. */
  chainTrusted: boolean;
  /** The leaf certificate covers the host (DNS name or IP address). */
  hostMatches: boolean;
  /** The trust store used: "system", plus NODE_EXTRA_CA_CERTS and the CA file when given. */
  trustStore: string;
  protocol?: string;
  cipher?: string;
}

export class TlsProbeError extends Error {
  constructor(
    message: string,
    readonly code: 'timeout' | 'refused' | 'dns' | 'handshake' | 'aborted' | 'ca-file',
    /** For a timeout: the step that stalled, the connection or the TLS handshake after it. */
    readonly stalled?: 'connect' | 'handshake',
  ) {
    super(message);
    this.name = 'TlsProbeError';
  }
}

function contextsOf(store: TrustStore): Trust | undefined {
  try {
    return store.contexts();
  } catch (error) {
    if (error instanceof CaFileError) throw new TlsProbeError(error.message, 'ca-file');
    throw new TlsProbeError(`The CA file ${store.caFile ?? ''} cannot be used: ${messageOf(error)}`, 'ca-file');
  }
}

/**
 * With a CA file, the handshake first trusts the file alone; a chain it does not trust is read again
 * with Node's roots beside it (net/trust.ts says why), within what is left of the deadline.
 */
export async function probeTls(options: TlsProbeOptions): Promise<TlsProbeResult> {
  const store = options.trust ?? systemTrust();
  const trust = options.insecure ? undefined : contextsOf(store);
  const started = performance.now();
  const first = await probeWith({ ...options, trust: store }, () => trust?.narrow);
  if (!trust || options.insecure || !UNKNOWN_CA_CODES.has(first.authorizationError ?? '')) return first;
  const left = Math.max(1, Math.round(options.timeoutMs - (performance.now() - started)));
  return probeWith({ ...options, trust: store, timeoutMs: left }, () => trust.wide());
}

async function probeWith(options: TlsProbeOptions, trust: () => SecureContext | undefined): Promise<TlsProbeResult> {
  const { host, port, timeoutMs, signal } = options;
  const trustStore = options.trust?.description ?? 'system';
  const name = options.servername ?? host;
  const servername = isIP(name) ? undefined : name; // RFC 6066: no SNI for an IP address
  const where = `${host}:${port}`;

  let raw: Socket | undefined;
  let socket: TLSSocket | undefined;
  let stage = 'connecting';
  const deadline = {
    timeoutMs,
    signal,
    timedOut: () => {
      const what =
        stage === 'connecting'
          ? 'did not accept a connection'
          : 'accepted the connection but did not complete the TLS handshake';
      return new TlsProbeError(
        `${where} ${what} within ${timeoutMs / 1000} s.`,
        'timeout',
        stage === 'connecting' ? 'connect' : 'handshake',
      );
    },
    aborted: () => new TlsProbeError(`TLS connection to ${where} was cancelled.`, 'aborted'),
    release: () => {
      socket?.destroy();
      raw?.destroy();
    },
  };
  return withDeadline<TlsProbeResult>(deadline, (finish) => {
    raw = netConnect({ host, port });
    raw.once('error', (error: NodeJS.ErrnoException) => {
      if (stage !== 'read') finish(networkError(where, error));
    });
    // The TLS layer starts once TCP is connected: a trust store built at the first connection of the
    // run is then built while the other connections are still under way rather than before they start.
    raw.once('connect', () => {
      try {
        handshake(new HandshakeTap(raw!), trust(), finish);
      } catch (error) {
        finish(error as Error); // e.g. a damaged certificate in the CA file
      }
    });
  });

  function handshake(
    tap: HandshakeTap,
    secureContext: SecureContext | undefined,
    finish: (error: Error | undefined, value?: TlsProbeResult) => void,
  ) {
    stage = 'handshake';
    socket = tlsConnect({
      socket: tap.stream,
      host,
      servername,
      secureContext,
      rejectUnauthorized: false,
      // Node only checks the name after a trusted chain; the probe checks it itself, always.
      checkServerIdentity: () => undefined,
      ALPNProtocols: ['h2', 'http/1.1'],
    });
    socket.on('keylog', (line: Buffer) => tap.addKeyLogLine(line.toString('latin1')));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (stage !== 'read') finish(networkError(where, error));
    });
    // What the socket knows is taken at once (the server may close it right after the handshake); the
    // chain is parsed and checked in the next turn of the event loop, so the handshakes of the other
    // endpoints whose answers arrived meanwhile go on first.
    socket.once('secureConnect', () => {
      stage = 'read';
      const s = socket!;
      const cipher = s.getCipher();
      const cipherName = cipher?.standardName ?? cipher?.name;
      const seen = {
        cipherName,
        protocol: s.getProtocol() ?? undefined,
        authorized: s.authorized,
        chainError: s.authorizationError ? String(s.authorizationError) : undefined,
        // Node's chain (sorted by issuer) only when the handshake bytes cannot give the served one.
        rebuilt: tap.canRead(cipherName) ? undefined : rebuiltChain(s),
      };
      setImmediate(() => read(seen));
    });
    const read = (seen: {
      cipherName?: string;
      protocol?: string;
      authorized: boolean;
      chainError?: string;
      rebuilt?: X509Certificate[];
    }) => {
      const fromHandshake = seen.rebuilt ? undefined : tap.servedChain(seen.cipherName);
      const chain = fromHandshake ?? seen.rebuilt ?? rebuiltChain(socket!);
      const leaf = chain[0];
      const hostMatches = leaf ? covers(leaf, name) : false;
      const chainTrusted = !options.insecure && seen.chainError === undefined && seen.authorized;
      const authorized = chainTrusted && hostMatches;
      finish(undefined, {
        chain,
        chainAsServed: fromHandshake !== undefined,
        authorized,
        authorizationError: options.insecure
          ? undefined
          : (seen.chainError ?? (hostMatches ? undefined : 'ERR_TLS_CERT_ALTNAME_INVALID')),
        chainTrusted,
        hostMatches,
        trustStore,
        protocol: seen.protocol,
        cipher: seen.cipherName,
      });
    };
  }
}

function covers(leaf: X509Certificate, host: string): boolean {
  return isIP(host) ? leaf.checkIP(host) !== undefined : leaf.checkHost(host) !== undefined;
}

function rebuiltChain(socket: TLSSocket): X509Certificate[] {
  const out: X509Certificate[] = [];
  const seen = new Set<string>();
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (cert && cert.raw && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    out.push(new X509Certificate(cert.raw));
    cert = cert.issuerCertificate;
  }
  return out;
}

function networkError(where: string, error: NodeJS.ErrnoException): TlsProbeError {
  switch (error.code) {
    case 'ECONNREFUSED':
      return new TlsProbeError(`${where} refused the connection (nothing listens on that port).`, 'refused');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new TlsProbeError(`The host name of ${where} does not resolve (${error.code}).`, 'dns');
    case 'ECONNRESET':
      return new TlsProbeError(
        `${where} closed the connection during the TLS handshake (is it a TLS port?).`,
        'handshake',
      );
    default:
      return new TlsProbeError(
        `TLS handshake with ${where} failed: ${error.code ?? ''} ${error.message}`.trim(),
        'handshake',
      );
  }
}
