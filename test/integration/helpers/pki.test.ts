import { X509Certificate } from 'node:crypto';
import { createServer } from 'node:https';
import { once } from 'node:events';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { chain, createTestCA, DAY, issue, KEY_KINDS, tempDir, writeFile } from '../../helpers/pki.js';

describe('test certificate builder', () => {
  it('issues a server certificate that Node verifies against the CA, for 127.0.0.1 and localhost', async () => {
    const ca = createTestCA();
    const pem = ca.issue(['localhost', '127.0.0.1']);
    const x = new X509Certificate(pem.cert);
    expect(x.verify(new X509Certificate(ca.cert).publicKey)).toBe(true);
    expect(x.subjectAltName).toContain('IP Address:127.0.0.1');
    const server = createServer(pem, (_req, res) => res.end('hi')).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as { port: number }).port;
    const body = await new Promise<string>((resolve, reject) => {
      request({ host: '127.0.0.1', port, ca: ca.cert }, (res) => {
        let data = '';
        res.on('data', (c) => (data += c)).on('end', () => resolve(data));
      })
        .on('error', reject)
        .end();
    });
    server.close();
    expect(body).toBe('hi');
  });

  it.each(KEY_KINDS)('builds a %s root → intermediate → leaf chain that OpenSSL verifies', (kind) => {
    const c = chain(kind, { dns: ['*.cloud.example.test', '192.0.2.7'] });
    const dir = tempDir();
    const [root, intermediate, leaf] = ['root.pem', 'intermediate.pem', 'leaf.pem'].map((name, i) =>
      writeFile(dir, name, [c.root, c.intermediate, c.leaf][i]!.cert),
    );
    expect(
      execFileSync('openssl', ['verify', '-CAfile', root!, '-untrusted', intermediate!, leaf!]).toString(),
    ).toContain(': OK');
    const x = new X509Certificate(c.leaf.cert);
    expect([x.subject, x.issuer, x.subjectAltName, x.ca]).toEqual([
      'CN=*.cloud.example.test',
      `CN=Test Intermediate ${kind}`,
      'DNS:*.cloud.example.test, IP Address:192.0.2.7',
      false,
    ]);
    expect(new X509Certificate(c.intermediate.cert).ca).toBe(true);
    expect(x.checkPrivateKey(c.leaf.keyObject)).toBe(true);
  });

  it('writes the validity window given, also past 2049', () => {
    const notBefore = new Date(Date.now() - 10 * DAY);
    for (const notAfter of [new Date(Date.now() - DAY), new Date('2060-01-01T00:00:00Z')]) {
      const x = new X509Certificate(issue({ cn: 'window', notBefore, notAfter }).cert);
      expect([new Date(x.validFrom).getTime(), new Date(x.validTo).getTime()]).toEqual(
        [notBefore, notAfter].map((d) => Math.floor(d.getTime() / 1000) * 1000),
      );
    }
  });
});
