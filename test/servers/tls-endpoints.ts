/**
 * Real TLS endpoints on 127.0.0.1 for the `tls` checks: any chain (in any order), a delay before the
 * handshake, or a server that accepts and never answers. Certificates come from helpers/pki.ts, so a
 * leaf can be signed by an intermediate.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, TLSSocket } from 'node:tls';
import { issue, type Issued, type IssueOptions } from '../helpers/pki.js';

const DAY = 86_400_000;

export { issue, type Issued, type IssueOptions };

/** A root, an intermediate under it, and a file holding the root (for --ca-file). */
export interface Pki {
  root: Issued;
  intermediate: Issued;
  rootFile: string;
  leaf(hosts: string[], options?: Partial<IssueOptions>): Issued;
}

export function createPki(name = 'cloudgate tls test'): Pki {
  // P-256: made at once (an RSA key takes 0.25 s); the tests about RSA keys give their leaf's kind.
  const root = issue({ kind: 'p256', cn: `${name} root`, ca: true, notAfter: new Date(Date.now() + 365 * DAY) });
  const intermediate = issue({
    cn: `${name} intermediate`,
    ca: true,
    issuer: root,
    notAfter: new Date(Date.now() + 300 * DAY),
  });
  const rootFile = join(mkdtempSync(join(tmpdir(), 'cloudgate-tls-')), 'root.pem');
  writeFileSync(rootFile, root.cert);
  return {
    root,
    intermediate,
    rootFile,
    leaf: (hosts, options = {}) =>
      issue({
        cn: hosts[0] ?? 'leaf',
        dns: hosts,
        issuer: intermediate,
        notAfter: new Date(Date.now() + 90 * DAY),
        ...options,
      }),
  };
}

export interface EndpointSpec {
  /** Certificates to serve, in the order given (the first must match `key`). */
  chain: string[];
  key: string;
  /** Wait this long after accepting before answering the handshake. */
  delayMs?: number;
  /** Accept the connection and never answer. */
  hang?: boolean;
  maxVersion?: 'TLSv1.2' | 'TLSv1.3';
  /** Serve what OpenSSL's default security level refuses to serve (an RSA-1024 key, a SHA-1 signature), as a misconfigured server does. */
  weakCrypto?: boolean;
}

export interface RunningEndpoint {
  host: string;
  port: number;
  /** `127.0.0.1:<port>`, as an --endpoint flag value. */
  address: string;
  stop(): Promise<void>;
}

export async function startTlsEndpoint(spec: EndpointSpec): Promise<RunningEndpoint> {
  const context = spec.hang
    ? undefined
    : createSecureContext({
        key: spec.key,
        cert: spec.chain.join('\n'),
        maxVersion: spec.maxVersion,
        ...(spec.weakCrypto ? { ciphers: 'DEFAULT@SECLEVEL=0' } : {}),
      });
  const sockets = new Set<Socket>();
  const server: Server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (spec.hang) return;
    const answer = () => {
      const tlsSocket = new TLSSocket(socket, { isServer: true, secureContext: context });
      tlsSocket.on('error', () => undefined);
      tlsSocket.on('secure', () => tlsSocket.end('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'));
    };
    if (spec.delayMs) setTimeout(answer, spec.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    host: '127.0.0.1',
    port,
    address: `127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
