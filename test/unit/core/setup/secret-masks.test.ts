import { describe, expect, it } from 'vitest';
import { maskedDiff, maskSecretLooking } from '../../../../src/core/setup/secret-masks.js';

const KEY_BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
const PEM = `-----BEGIN PRIVATE KEY-----\n${KEY_BODY}\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----`;

describe('a private key in the diff, whatever its variable is called', () => {
  const indented = PEM.split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
  const before = `cluster_issuer_type: acme\nmy_tls_material: |\n${indented}\nnested:\n  cfg:\n    pem: |\n${PEM.split(
    '\n',
  )
    .map((l) => `      ${l}`)
    .join('\n')}\n`;

  it('is masked line by line, the lines kept where they are', () => {
    const masked = maskSecretLooking(before);
    expect(masked).not.toContain(KEY_BODY);
    expect(masked.split('\n')).toHaveLength(before.split('\n').length);
    expect(masked).toMatch(/^my_tls_material: \*+$/m);
  });

  it('never shows in the context lines of a change elsewhere', () => {
    const after = before.replace('cluster_issuer_type: acme', 'cluster_issuer_type: ca');
    const diff = maskedDiff('certs.yml', before, after, [
      { start: 0, end: 'cluster_issuer_type: acme'.length, text: 'cluster_issuer_type: ca' },
    ]);
    expect(diff).toContain('+cluster_issuer_type: ca');
    expect(diff).not.toContain(KEY_BODY);
    expect(diff).not.toContain('AAAAAAAAAAAAAAAAAAAA');
  });
});
