import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkStrength, signatureOid, weaknessesOf } from '../../../../src/core/tls/strength.js';
import { chain, issue } from '../../../helpers/pki.js';

const x509 = (pem: string) => new X509Certificate(pem);

describe('keys and signatures below what the CA/Browser Forum and Kubernetes accept', () => {
  const root = issue({ kind: 'rsa', cn: 'Strength Root', ca: true });

  it.each([
    ['an RSA 512-bit key', { kind: 'rsa512' as const }, /RSA 512-bit key, below the 2048 bits/],
    ['an RSA 1024-bit key', { kind: 'rsa1024' as const }, /RSA 1024-bit key/],
    ['a P-224 key', { kind: 'p224' as const }, /elliptic-curve key on secp224r1/],
    ['a SHA-1 signature', { sha1: true }, /SHA-1 signature \(sha1WithRSAEncryption\)/],
  ])('%s is a weakness, named', (_, options, expected) => {
    const leaf = issue({ cn: 'leaf', dns: ['leaf.example'], issuer: root, ...options });
    const found = weaknessesOf(x509(leaf.cert));
    expect(found.map((w) => w.what).join('; ')).toMatch(expected);
  });

  it('reads the signature algorithm from the DER', () => {
    expect(signatureOid(x509(issue({ cn: 'a', issuer: root, sha1: true }).cert).raw)).toBe('1.2.840.113549.1.1.5');
    expect(signatureOid(x509(issue({ cn: 'a', issuer: root }).cert).raw)).toBe('1.2.840.113549.1.1.11');
  });

  it("accepts RSA 2048, P-256, P-384 and Ed25519 with SHA-256 or better, and a self-signed root's own SHA-1 signature", () => {
    for (const kind of ['rsa', 'p256', 'p384', 'ed25519'] as const) {
      const c = chain(kind);
      expect(
        checkStrength(
          [c.leaf, c.intermediate, c.root].map((i) => ({ x509: x509(i.cert) })),
          'wildcard.pem',
        ).status,
        kind,
      ).toBe('ok');
    }
    const oldRoot = issue({ kind: 'rsa', cn: 'Old Root', ca: true, sha1: true });
    expect(weaknessesOf(x509(oldRoot.cert))).toEqual([]);
  });

  it('the check names each weak certificate of a chain and the fix', () => {
    const weakIntermediate = issue({ kind: 'rsa1024', cn: 'Weak Intermediate', ca: true, issuer: root });
    const leaf = issue({ cn: '*.cloud.example', dns: ['*.cloud.example'], issuer: weakIntermediate, sha1: true });
    const check = checkStrength(
      [leaf, weakIntermediate, root].map((i) => ({ x509: x509(i.cert) })),
      'wildcard.pem',
    );
    expect(check).toMatchObject({ name: 'strength', status: 'fail' });
    expect(check.message).toContain('the certificate "*.cloud.example" has a SHA-1 signature');
    expect(check.message).toContain('the intermediate "Weak Intermediate" has an RSA 1024-bit key');
    expect(check.advice).toMatch(/SHA-256/);
  });
});
