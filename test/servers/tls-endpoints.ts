/**
 * Real TLS endpoints on 127.0.0.1 for the `tls` checks: any chain (in any order), a delay before the
 * handshake, or a server that accepts and never answers. Certificates are made with node-forge so a
 * leaf can be signed by an intermediate (test-ca.ts signs everything with its root).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSecureContext, TLSSocket } from 'node:tls';
import forge from 'node-forge';

const DAY = 86_400_000;

export interface Issued {
  cert: string;
  key: string;
}

export interface IssueSpec {
  commonName: string;
  /** DNS names or IP addresses for subjectAltName (leaves only). */
  hosts?: string[];
  ca?: boolean;
  notBefore?: Date;
  notAfter?: Date;
  /** Signer; absent = self-signed. */
  issuer?: Issued;
}

export function issue(spec: IssueSpec): Issued {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '01' + randomBytes(8).toString('hex');
  cert.validity.notBefore = spec.notBefore ?? new Date(Date.now() - DAY);
  cert.validity.notAfter = spec.notAfter ?? new Date(Date.now() + 90 * DAY);
  cert.setSubject([{ name: 'commonName', value: spec.commonName }]);
  const signerCert = spec.issuer ? forge.pki.certificateFromPem(spec.issuer.cert) : cert;
  cert.setIssuer(signerCert.subject.attributes);
  const altNames = (spec.hosts ?? []).map((h) => (/^[\d.]+$|:/.test(h) ? { type: 7, ip: h } : { type: 2, value: h }));
  cert.setExtensions(
    spec.ca
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          ...(altNames.length ? [{ name: 'subjectAltName', altNames }] : []),
        ],
  );
  const signerKey = forge.pki.privateKeyFromPem(spec.issuer ? spec.issuer.key : keyPem);
  cert.sign(signerKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: keyPem };
}

/** A root, an intermediate under it, and a file holding the root (for --ca-file). */
export interface Pki {
  root: Issued;
  intermediate: Issued;
  rootFile: string;
  leaf(hosts: string[], options?: Partial<IssueSpec>): Issued;
}

export function createPki(name = 'cloudgate tls test'): Pki {
  const root = issue({ commonName: `${name} root`, ca: true, notAfter: new Date(Date.now() + 365 * DAY) });
  const intermediate = issue({ commonName: `${name} intermediate`, ca: true, issuer: root, notAfter: new Date(Date.now() + 300 * DAY) });
  const rootFile = join(mkdtempSync(join(tmpdir(), 'cloudgate-tls-')), 'root.pem');
  writeFileSync(rootFile, root.cert);
  return {
    root,
    intermediate,
    rootFile,
    leaf: (hosts, options = {}) => issue({ commonName: hosts[0] ?? 'leaf', hosts, issuer: intermediate, ...options }),
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
    : createSecureContext({ key: spec.key, cert: spec.chain.join('\n'), maxVersion: spec.maxVersion });
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
