import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { basicConstraintsCa, keyUsage } from '../../../../src/core/tls/extensions.js';
import {
  certificateBlocks,
  parseCertificates,
  parsePemBlocks,
  parsePrivateKey,
  PemError,
} from '../../../../src/core/tls/pem.js';
import { redact } from '../../../../src/core/secrets.js';
import { chain, issue, KEY_KINDS, keyPem, type Chain } from '../../../helpers/pki.js';

function pemError(fn: () => unknown): PemError {
  try {
    fn();
  } catch (error) {
    if (error instanceof PemError) return error;
    throw error;
  }
  throw new Error('expected a PemError');
}

describe('PEM blocks', () => {
  let c: Chain;
  beforeAll(async () => {
    c = await chain('p256');
  });

  it('certificateBlocks: the certificate blocks of a text in order, keys and other text left out', () => {
    const blocks = certificateBlocks(`note\n${c.leaf.cert}${c.leaf.key}${c.intermediate.cert}`);
    expect(blocks.map((b) => new X509Certificate(b).subject)).toEqual([
      new X509Certificate(c.leaf.cert).subject,
      new X509Certificate(c.intermediate.cert).subject,
    ]);
    expect(certificateBlocks('no PEM here')).toEqual([]);
  });

  it('reads every block with its index and type', () => {
    const blocks = parsePemBlocks(c.leaf.cert + c.leaf.key + c.intermediate.cert, 'bundle.pem');
    expect(blocks.map((b) => [b.index, b.type])).toEqual([
      [1, 'CERTIFICATE'],
      [2, 'PRIVATE KEY'],
      [3, 'CERTIFICATE'],
    ]);
    expect(new X509Certificate(blocks[2]!.der).subject).toBe('CN=Test Intermediate p256');
  });

  it('rejects garbage, naming the input', () => {
    expect(pemError(() => parsePemBlocks('hello world\n', 'junk.pem')).message).toMatch(/junk\.pem holds no PEM block/);
    expect(pemError(() => parsePemBlocks('', 'empty.pem')).message).toMatch(/empty\.pem is empty/);
  });

  it('recognises DER and says how to convert it', () => {
    const der = new X509Certificate(c.leaf.cert).raw.toString('latin1');
    const error = pemError(() => parsePemBlocks(der, 'cert.der'));
    expect(error.message).toMatch(/binary DER/);
    expect(error.advice).toMatch(/openssl x509 -inform der -in cert\.der/);
  });

  it('reports a truncated bundle with the block index and type', () => {
    const cut = (c.leaf.cert + c.intermediate.cert).split('\n').slice(0, -4).join('\n');
    const error = pemError(() => parsePemBlocks(cut, 'chain.pem'));
    expect(error.message).toMatch(/chain\.pem: block 2 \(CERTIFICATE\) begins on line \d+ but has no END line/);
  });

  it('reports a certificate whose body was cut short', () => {
    const lines = c.intermediate.cert.trim().split('\n');
    const damaged = [lines[0], ...lines.slice(1, 4), lines[lines.length - 1]].join('\n');
    const error = pemError(() => parseCertificates(c.leaf.cert + damaged, 'chain.pem'));
    expect(error.message).toMatch(/chain\.pem: block 2 \(CERTIFICATE\) is not a readable certificate/);
  });

  it('rejects non-base64 content', () => {
    const bad = c.leaf.cert.replace(/\n([A-Za-z0-9+/]{10})/, '\n!!!!!!!!!!');
    expect(pemError(() => parsePemBlocks(bad, 'x.pem')).message).toMatch(/block 1 \(CERTIFICATE\) is not valid base64/);
  });

  it('skips key blocks in a certificate bundle and refuses other types', () => {
    const parsed = parseCertificates(c.leaf.cert + c.leaf.key, 'combined.pem');
    expect(parsed.certificates).toHaveLength(1);
    expect(parsed.skippedKeys).toBe(1);
    const csr = '-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n';
    expect(pemError(() => parseCertificates(c.leaf.cert + csr, 'b.pem')).message).toMatch(
      /block 2 \(CERTIFICATE REQUEST\) is not a certificate/,
    );
    expect(pemError(() => parseCertificates(c.leaf.key, 'k.pem')).message).toMatch(/holds no certificate/);
  });
});

describe.each(KEY_KINDS)('private keys (%s)', (kind) => {
  let c: Chain;
  beforeAll(async () => {
    c = await chain(kind);
  });

  const forms =
    kind === 'rsa'
      ? (['pkcs8', 'pkcs1'] as const)
      : kind === 'ed25519'
        ? (['pkcs8'] as const)
        : (['pkcs8', 'sec1'] as const);
  const expected = { rsa: 'RSA 2048', p256: 'ECDSA P-256', p384: 'ECDSA P-384', ed25519: 'Ed25519' }[kind];

  it.each(forms)('reads the %s form and describes the key', (form) => {
    const pem = keyPem(c.leaf, form);
    const parsed = parsePrivateKey(pem, 'tls.key');
    expect(parsed.description).toBe(expected);
    expect(redact(pem)).not.toContain(pem.split('\n')[1]);
  });

  it('explains how to decrypt an encrypted PKCS#8 key', () => {
    const error = pemError(() => parsePrivateKey(keyPem(c.leaf, 'encrypted'), 'secret.key'));
    expect(error.message).toMatch(/secret\.key: block 1 \(ENCRYPTED PRIVATE KEY\) is encrypted/);
    expect(error.advice).toMatch(/openssl pkey -in secret\.key -out secret\.key\.decrypted/);
  });
});

describe('other key input', () => {
  it('explains a legacy encrypted key (Proc-Type header)', async () => {
    const { leaf } = await chain('rsa');
    const legacy = leaf.keyObject
      .export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw12345' })
      .toString();
    expect(legacy).toContain('Proc-Type: 4,ENCRYPTED');
    expect(pemError(() => parsePrivateKey(legacy, 'old.key')).advice).toMatch(/openssl pkey/);
  });

  it('refuses a file with no key or two keys', async () => {
    const { leaf, intermediate } = await chain('ed25519');
    expect(pemError(() => parsePrivateKey(leaf.cert, 'c.pem')).message).toMatch(
      /holds no private key \(found block 1 \(CERTIFICATE\)\)/,
    );
    expect(pemError(() => parsePrivateKey(leaf.key + intermediate.key, 'two.key')).message).toMatch(
      /holds 2 private keys/,
    );
  });

  it('accepts a key with its certificate in the same file', async () => {
    const { leaf } = await chain('p384');
    expect(parsePrivateKey(leaf.cert + leaf.key, 'combined.pem').block.index).toBe(2);
  });
});

describe('extensions', () => {
  it('reads key usage bits and basic constraints, and their absence', async () => {
    const { intermediate, leaf } = await chain('p256');
    expect(keyUsage(new X509Certificate(intermediate.cert).raw)).toEqual(['keyCertSign', 'cRLSign']);
    expect(keyUsage(new X509Certificate(leaf.cert).raw)).toEqual(['digitalSignature', 'keyEncipherment']);
    const bare = await issue({ cn: 'no usage', ca: true, noKeyUsage: true });
    expect(keyUsage(new X509Certificate(bare.cert).raw)).toBeUndefined();
    expect(basicConstraintsCa(new X509Certificate(bare.cert).raw)).toBe(true);
    expect(basicConstraintsCa(new X509Certificate(leaf.cert).raw)).toBe(false);
  });
});

describe('names of a certificate, in one place', () => {
  it('commonName reads both forms of a distinguished name, and falls back to the whole name', async () => {
    const { commonName } = await import('../../../../src/core/tls/pem.js');
    expect(commonName('C=DE\nO=Example\nCN=api.example.com')).toBe('api.example.com');
    expect(commonName('C=DE, O=Example, CN=Example Root CA')).toBe('Example Root CA');
    expect(commonName('C=DE\nO=Example')).toBe('C=DE, O=Example');
  });

  it('altNames gives DNS names lower-cased and IP addresses, in order', async () => {
    const { altNames } = await import('../../../../src/core/tls/pem.js');
    const cert = {
      subjectAltName: 'DNS:API.Example.com, IP Address:10.0.0.5, DNS:"*.example.com"',
    } as import('node:crypto').X509Certificate;
    expect(altNames(cert)).toEqual({
      all: ['api.example.com', '10.0.0.5', '*.example.com'],
      dns: ['api.example.com', '*.example.com'],
    });
    expect(altNames({ subjectAltName: undefined } as unknown as import('node:crypto').X509Certificate)).toEqual({
      all: [],
      dns: [],
    });
  });
});
