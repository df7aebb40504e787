import { X509Certificate } from 'node:crypto';
import { createServer } from 'node:https';
import { once } from 'node:events';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { createTestCA } from '../../helpers/test-ca.js';

describe('test CA helper', () => {
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
      }).on('error', reject).end();
    });
    server.close();
    expect(body).toBe('hi');
  });
});
