import { describe, expect, it } from 'vitest';

describe('public trust of a served chain', () => {
  it('counts a chain ending at a bundled public root, not one ending at a private CA', async () => {
    const { X509Certificate } = await import('node:crypto');
    const { rootCertificates } = await import('node:tls');
    // One rule for every group: the top of the chain is, or is issued by, a bundled public root.
    const { chainsToPublicRoot } = await import('../../../../src/core/tls/served-path.js');
    const { createTestCA } = await import('../../../helpers/pki.js');
    const ca = createTestCA('private');
    const leaf = new X509Certificate(ca.issue(['oidc.example.com']).cert);
    expect(chainsToPublicRoot(new X509Certificate(ca.cert))).toBe(false);
    expect(chainsToPublicRoot(leaf)).toBe(false);
    expect(chainsToPublicRoot(new X509Certificate(rootCertificates[0]))).toBe(true);
  });
});
