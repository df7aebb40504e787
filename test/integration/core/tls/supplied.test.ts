import { X509Certificate } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSuppliedWildcard } from '../../../../src/core/tls/supplied.js';
import { chain, DAY, issue, KEY_KINDS, keyPem, tempDir, writeFile, type Chain } from '../../../helpers/pki.js';

const DOMAIN = 'cloud.example.test';
const subjects = (pem: string) =>
  pem
    .split(/(?<=-----END CERTIFICATE-----\n)/)
    .filter(Boolean)
    .map((b) => new X509Certificate(b).subject);

describe.each(KEY_KINDS)('loadSuppliedWildcard (%s)', (kind) => {
  let c: Chain;
  let dir: string;
  beforeAll(async () => {
    c = await chain(kind);
    dir = tempDir();
  });

  it('returns the chain in order and the key, with no findings', () => {
    const result = loadSuppliedWildcard({
      certificateFile: writeFile(dir, 'ok.pem', c.leaf.cert + c.intermediate.cert + c.root.cert),
      keyFile: writeFile(dir, 'ok.key', c.leaf.key),
      domain: DOMAIN,
      fixOrder: false,
    });
    expect(result.findings).toEqual([]);
    expect(subjects(result.chainPem)).toEqual([
      'CN=*.cloud.example.test',
      `CN=Test Intermediate ${kind}`,
      `CN=Test Root ${kind}`,
    ]);
    expect(result.keyPem).toBe(c.leaf.key);
    expect(result.reordered).toBe(false);
  });

  it('refuses a wrong order unless fixOrder, then returns the fixed chain', () => {
    const certificateFile = writeFile(dir, 'shuffled.pem', c.intermediate.cert + c.root.cert + c.leaf.cert);
    const keyFile = writeFile(dir, 'shuffled.key', keyPem(c.leaf, kind === 'rsa' ? 'pkcs1' : 'pkcs8'));
    const refused = loadSuppliedWildcard({ certificateFile, keyFile, domain: DOMAIN, fixOrder: false });
    expect(refused.chainPem).toBe('');
    expect(refused.findings.map((f) => [f.rule, f.variable, f.severity])).toEqual([
      ['wildcard-chain-order', 'wildcard_certificate_file', 'error'],
      ['wildcard-key-match', 'wildcard_key_file', 'error'],
    ]);
    expect(refused.findings[0]!.advice).toMatch(/--fix-order/);

    const fixed = loadSuppliedWildcard({ certificateFile, keyFile, domain: DOMAIN, fixOrder: true });
    expect(fixed.reordered).toBe(true);
    expect(fixed.findings.map((f) => f.severity)).toEqual(['warning']);
    expect(subjects(fixed.chainPem)[0]).toBe('CN=*.cloud.example.test');
  });
});

describe('loadSuppliedWildcard input problems', () => {
  let c: Chain;
  let dir: string;
  beforeAll(async () => {
    c = await chain('p256');
    dir = tempDir();
  });

  it('warns when the key file can be read by other users', () => {
    const keyFile = writeFile(dir, 'open.key', c.leaf.key);
    chmodSync(keyFile, 0o644);
    const result = loadSuppliedWildcard({
      certificateFile: writeFile(dir, 'o.pem', c.leaf.cert + c.intermediate.cert),
      keyFile,
      fixOrder: false,
    });
    expect(result.findings).toEqual([
      expect.objectContaining({
        rule: 'wildcard-key-permissions',
        severity: 'warning',
        advice: `chmod 600 ${keyFile}`,
      }),
    ]);
    chmodSync(keyFile, 0o600);
    expect(loadSuppliedWildcard({ certificateFile: `${dir}/o.pem`, keyFile, fixOrder: false }).findings).toEqual([]);
  });

  it('names a missing file and its answers key', () => {
    const result = loadSuppliedWildcard({
      certificateFile: `${dir}/missing.pem`,
      keyFile: writeFile(dir, 'k', c.leaf.key),
      fixOrder: false,
    });
    expect(result.findings).toEqual([
      expect.objectContaining({
        variable: 'wildcard_certificate_file',
        severity: 'error',
        message: expect.stringMatching(/missing\.pem .* no such file/),
      }),
    ]);
  });

  it('refuses an encrypted key and a mismatched key', async () => {
    const certificateFile = writeFile(dir, 'c.pem', c.leaf.cert + c.intermediate.cert);
    const encrypted = loadSuppliedWildcard({
      certificateFile,
      keyFile: writeFile(dir, 'enc.key', keyPem(c.leaf, 'encrypted')),
      fixOrder: true,
    });
    expect(encrypted.findings.find((f) => f.rule === 'wildcard-key')?.advice).toMatch(/openssl pkey/);
    const other = await issue({ cn: 'other', kind: 'p256' });
    const mismatch = loadSuppliedWildcard({
      certificateFile,
      keyFile: writeFile(dir, 'other.key', other.key),
      fixOrder: true,
    });
    expect(mismatch.findings.find((f) => f.rule === 'wildcard-key-match')?.severity).toBe('error');
    expect(mismatch.chainPem).toBe('');
  });

  it('warns that a supplied certificate expiring soon must be renewed by the operator', async () => {
    const soon = await issue({
      cn: 'soon',
      dns: [`*.${DOMAIN}`],
      issuer: c.intermediate,
      notAfter: new Date(Date.now() + 12 * DAY),
    });
    const result = loadSuppliedWildcard({
      certificateFile: writeFile(dir, 'soon.pem', soon.cert + c.intermediate.cert),
      keyFile: writeFile(dir, 'soon.key', soon.key),
      domain: DOMAIN,
      fixOrder: false,
    });
    expect(result.findings).toEqual([
      expect.objectContaining({
        rule: 'wildcard-validity',
        severity: 'warning',
        advice: expect.stringMatching(/never renews a supplied wildcard/),
      }),
    ]);
    expect(result.chainPem).not.toBe('');
  });

  it('refuses garbage and truncated PEM with the block named', () => {
    const keyFile = writeFile(dir, 'good.key', c.leaf.key);
    const garbage = loadSuppliedWildcard({
      certificateFile: writeFile(dir, 'garbage.pem', 'not a certificate\n'),
      keyFile,
      fixOrder: false,
    });
    expect(garbage.findings[0]).toMatchObject({ rule: 'wildcard-parse', severity: 'error' });
    const cut = (c.leaf.cert + c.intermediate.cert).slice(0, -40);
    const truncated = loadSuppliedWildcard({
      certificateFile: writeFile(dir, 'cut.pem', cut),
      keyFile,
      fixOrder: false,
    });
    expect(truncated.findings[0]!.message).toMatch(/block 2 \(CERTIFICATE\)/);
  });
});
