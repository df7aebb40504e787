/** What a TLS secret really holds: its leaf and whether its key belongs to it. */
import { describe, expect, it } from 'vitest';
import {
  certificateFact,
  readSecretCertificate,
  secretProblems,
} from '../../../../../src/core/areas/kube/secret-certificate.js';
import { redact } from '../../../../../src/core/secrets.js';
import { leafFor, tlsSecret } from '../../../../helpers/cert-manager-objects.js';

const leaf = leafFor(['nova.cloud.test']);
const secretWith = (data: Record<string, string>) => ({ ...tlsSecret('s', 'openstack', leaf), data });
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('readSecretCertificate', () => {
  it.each<[string, () => Record<string, string>, string, RegExp | undefined]>([
    [
      'the certificate with its key',
      () => ({ 'tls.crt': b64(leaf.cert), 'tls.key': b64(leaf.key) }),
      'matches',
      undefined,
    ],
    ['an empty key', () => ({ 'tls.crt': b64(leaf.cert), 'tls.key': '' }), 'missing', /tls.key is empty/],
    [
      'another key',
      () => ({ 'tls.crt': b64(leaf.cert), 'tls.key': b64(leafFor(['x']).key) }),
      'mismatch',
      /does not belong/,
    ],
    [
      'a key that is not a key',
      () => ({ 'tls.crt': b64(leaf.cert), 'tls.key': b64('not a key at all') }),
      'unreadable',
      /not a readable private key/,
    ],
    ['no certificate', () => ({ 'tls.key': b64(leaf.key) }), 'unreadable', /holds no tls.crt/],
  ])('%s', (_, data, key, problem) => {
    const read = readSecretCertificate(secretWith(data()));
    expect(read.key).toBe(key);
    const problems = secretProblems(read, new Date())
      .map((p) => p.phrase)
      .join('; ');
    if (problem) expect(problems).toMatch(problem);
    else expect(problems).toBe('');
  });

  it('gives the leaf as a certificate fact and registers the key as a secret', () => {
    const read = readSecretCertificate(secretWith({ 'tls.crt': b64(leaf.cert), 'tls.key': b64(leaf.key) }));
    expect(certificateFact(read)).toEqual({
      source: 'openstack/s',
      subject: 'nova.cloud.test',
      notAfter: read.leaf!.notAfter,
    });
    const keyLine = leaf.key.split('\n')[1]!;
    expect(redact(keyLine)).not.toContain(keyLine);
  });
});
