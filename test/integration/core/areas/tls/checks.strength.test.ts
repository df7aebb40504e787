/**
 * A served certificate with a key or a signature below what the CA/Browser Forum and Kubernetes
 * accept fails, named as such (the key size, the SHA-1 signature), never as an untrusted CA for which
 * --ca-file would be the fix. The servers are real TLS endpoints on 127.0.0.1 that serve such chains.
 */
import { describe, expect, it } from 'vitest';
import { checkEndpoint } from '../../../../../src/core/areas/tls/checks.js';
import { openServices } from '../../../../../src/core/doctor/services.js';
import type { NetworkSettings } from '../../../../../src/core/config/network.js';
import type { EndpointSpec } from '../../../../servers/tls-endpoints.js';
import { useTlsEndpoints } from '../../../../helpers/tls-endpoints.js';

const tls = useTlsEndpoints();
const network = (): NetworkSettings => ({
  timeoutMs: 3000,
  insecure: false,
  allowHttp: false,
  verbose: false,
  log: () => undefined,
  caFile: tls.pki.rootFile,
});

async function check(spec: EndpointSpec) {
  const e = await tls.start({ ...spec, weakCrypto: true });
  return checkEndpoint(
    { host: 'localhost', port: e.port, source: 'flag', origin: '--endpoint', address: '127.0.0.1' },
    { issuerType: 'ca' },
    openServices(network()),
  );
}

describe('weak cryptography served', () => {
  it('an RSA 1024-bit key fails, naming the key size (OpenSSL alone would trust it)', async () => {
    const leaf = tls.pki.leaf(['localhost'], { kind: 'rsa1024' });
    const result = await check({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key });
    expect(result.status).toBe('fail');
    expect(result.message).toContain('the certificate "localhost" has an RSA 1024-bit key, below the 2048 bits');
    expect(result.advice).toMatch(/at least 2048 bits/);
  });

  it('a SHA-1 signature fails as a SHA-1 signature, not as "not trusted, pass --ca-file"', async () => {
    const leaf = tls.pki.leaf(['localhost'], { sha1: true });
    const result = await check({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key });
    expect(result.status).toBe('fail');
    expect(result.message).toContain('the certificate "localhost" has a SHA-1 signature (ecdsa-with-SHA1)');
    expect(result.message).not.toMatch(/not trusted|does not trust|neither served nor trusted/);
    expect(result.advice).toContain('--ca-file cannot change that');
  });

  it('a sound chain from the same CA passes', async () => {
    const leaf = tls.pki.leaf(['localhost']);
    expect((await check({ chain: [leaf.cert, tls.pki.intermediate.cert], key: leaf.key })).status).toBe('ok');
  });
});
