import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Socket } from 'node:net';
import { createSecureContext, TLSSocket } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { probeTls, TlsProbeError } from '../../../../src/core/net/tls-probe.js';
import { trustStore } from '../../../../src/core/net/trust.js';
import { withExtraCaCerts } from '../../../helpers/extra-ca-certs.js';
import { createPki, issue } from '../../../servers/tls-endpoints.js';
import { useTlsEndpoints } from '../../../helpers/tls-endpoints.js';

const tls = useTlsEndpoints();

const subjects = (chain: { subject: string }[]) => chain.map((c) => c.subject.replace('CN=', ''));

describe('probeTls', () => {
  for (const maxVersion of ['TLSv1.3', 'TLSv1.2'] as const) {
    it(`reads the chain in served order and trusts it through the CA file (${maxVersion} server)`, async () => {
      const leaf = tls.pki.leaf(['localhost', '127.0.0.1']);
      const e = await tls.start({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key, maxVersion });
      const result = await probeTls({
        host: '127.0.0.1',
        port: e.port,
        trust: trustStore(tls.pki.rootFile),
        timeoutMs: 5000,
      });
      expect(result.protocol).toBe(maxVersion);
      expect(result.chainAsServed).toBe(true);
      expect(subjects(result.chain)).toEqual(['localhost', 'cloudgate tls test intermediate']);
      expect(result.chainTrusted).toBe(true);
      expect(result.hostMatches).toBe(true);
      expect(result.authorized).toBe(true);
      expect(result.trustStore).toMatch(/^system/);
      expect(result.trustStore.endsWith(tls.pki.rootFile)).toBe(true);
    });

    it(`keeps a wrong order as served (${maxVersion} server)`, async () => {
      const leaf = tls.pki.leaf(['localhost']);
      const e = await tls.start({
        chain: [leaf.cert, tls.pki.root.cert, tls.pki.intermediate.cert],
        key: leaf.key,
        maxVersion,
      });
      const result = await probeTls({
        host: 'localhost',
        port: e.port,
        trust: trustStore(tls.pki.rootFile),
        timeoutMs: 5000,
      });
      expect(result.chainAsServed).toBe(true);
      expect(subjects(result.chain)).toEqual([
        'localhost',
        'cloudgate tls test root',
        'cloudgate tls test intermediate',
      ]);
    });
  }

  // The chain is read in the next turn of the event loop: by then such a server has reset the connection.
  it('reads the chain of a server that resets the connection as soon as the handshake is done', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    const context = createSecureContext({ key: leaf.key, cert: [leaf.cert, tls.pki.intermediate.cert].join('\n') });
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
      const secure = new TLSSocket(socket, { isServer: true, secureContext: context });
      secure.on('error', () => undefined);
      secure.on('secure', () => socket.resetAndDestroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      for (let i = 0; i < 5; i++) {
        const result = await probeTls({
          host: 'localhost',
          port,
          trust: trustStore(tls.pki.rootFile),
          timeoutMs: 5000,
        });
        expect(subjects(result.chain)).toEqual(['localhost', 'cloudgate tls test intermediate']);
        expect(result.chainTrusted).toBe(true);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reports an untrusted chain without the CA file, and a wrong host name', async () => {
    const leaf = tls.pki.leaf(['api.example.test']);
    const e = await tls.start({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key });
    const untrusted = await probeTls({
      host: '127.0.0.1',
      port: e.port,
      servername: 'api.example.test',
      timeoutMs: 5000,
    });
    expect(untrusted.chainTrusted).toBe(false);
    expect(untrusted.authorizationError).toMatch(/UNABLE_TO_GET_ISSUER_CERT_LOCALLY|SELF_SIGNED_CERT_IN_CHAIN/);
    expect(untrusted.trustStore).not.toContain(tls.pki.rootFile);
    const wrongHost = await probeTls({
      host: 'localhost',
      port: e.port,
      trust: trustStore(tls.pki.rootFile),
      timeoutMs: 5000,
    });
    expect(wrongHost.chainTrusted).toBe(true);
    expect(wrongHost.hostMatches).toBe(false);
    expect(wrongHost.authorized).toBe(false);
  });

  it('reports a self-signed certificate', async () => {
    const self = issue({ cn: 'localhost', dns: ['localhost'] });
    const e = await tls.start({ chain: [self.cert], key: self.key });
    const result = await probeTls({ host: 'localhost', port: e.port, timeoutMs: 5000 });
    expect(result.chain).toHaveLength(1);
    expect(result.authorizationError).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('rejects with a timeout when the server accepts and never answers', async () => {
    const e = await tls.start({ chain: [], key: '', hang: true });
    const error = await probeTls({ host: '127.0.0.1', port: e.port, timeoutMs: 300 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TlsProbeError);
    expect((error as TlsProbeError).code).toBe('timeout');
    expect((error as TlsProbeError).stalled).toBe('handshake');
    expect((error as Error).message).toMatch(/accepted the connection but did not complete the TLS handshake/);
  });

  it('rejects when nothing listens', async () => {
    const e = await tls.start({ chain: [], key: '', hang: true });
    await e.stop();
    const error = await probeTls({ host: '127.0.0.1', port: e.port, timeoutMs: 2000 }).catch((err: unknown) => err);
    expect((error as TlsProbeError).code).toBe('refused');
  });

  it('names a CA file it cannot read or that holds no certificate, before connecting', async () => {
    const notPem = join(mkdtempSync(join(tmpdir(), 'cloudgate-probe-')), 'ca.txt');
    writeFileSync(notPem, 'not a certificate\n');
    for (const [caFile, text] of [
      ['/nonexistent/ca.pem', 'Cannot read the CA file /nonexistent/ca.pem'],
      [notPem, 'holds no PEM certificate'],
    ]) {
      const error = await probeTls({ host: '127.0.0.1', port: 1, trust: trustStore(caFile), timeoutMs: 2000 }).catch(
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(TlsProbeError);
      expect((error as TlsProbeError).code).toBe('ca-file');
      expect((error as TlsProbeError).message).toContain(text);
    }
  });

  it('reads a CA file again once it changed (a CA rotated under a running exporter)', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    const e = await tls.start({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key });
    const other = createPki('rotated away');
    const file = join(mkdtempSync(join(tmpdir(), 'cg-ca-rotate-')), 'ca.pem');
    writeFileSync(file, readFileSync(other.rootFile));
    expect(
      (await probeTls({ host: 'localhost', port: e.port, trust: trustStore(file), timeoutMs: 5000 })).chainTrusted,
    ).toBe(false);
    writeFileSync(file, `${readFileSync(tls.pki.rootFile, 'utf8')}\n`);
    expect(
      (await probeTls({ host: 'localhost', port: e.port, trust: trustStore(file), timeoutMs: 5000 })).chainTrusted,
    ).toBe(true);
  });

  // Without a CA file Node's own store holds NODE_EXTRA_CA_CERTS from start-up: test/e2e/launcher.test.ts.
  it('with a CA file, still trusts NODE_EXTRA_CA_CERTS', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    const e = await tls.start({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key });
    const other = createPki('other');
    await withExtraCaCerts(tls.pki.rootFile, async () => {
      const result = await probeTls({
        host: 'localhost',
        port: e.port,
        trust: trustStore(other.rootFile),
        timeoutMs: 5000,
      });
      expect(result.chainTrusted).toBe(true);
      expect(result.trustStore).toContain(`NODE_EXTRA_CA_CERTS ${tls.pki.rootFile}`);
    });
    expect(
      (await probeTls({ host: 'localhost', port: e.port, trust: trustStore(other.rootFile), timeoutMs: 5000 }))
        .chainTrusted,
    ).toBe(false);
  });
});
