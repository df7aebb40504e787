import { afterEach, describe, expect, it } from 'vitest';
import { clearSecretsForTests, redact, registerSecret } from '../../../src/core/secrets.js';

describe('secret registry', () => {
  afterEach(() => clearSecretsForTests());

  it('masks a secret wherever it appears, also base64- and URL-encoded', () => {
    registerSecret('p@ss word/42!');
    const text = `a p@ss word/42! b ${Buffer.from('p@ss word/42!').toString('base64')} c ${encodeURIComponent('p@ss word/42!')}`;
    expect(redact(text)).toBe('a [redacted] b [redacted] c [redacted]');
  });

  it('masks each body line of a PEM private key on its own', () => {
    const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
    registerSecret(`-----BEGIN PRIVATE KEY-----\n${body}\nAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----\n`);
    expect(redact(`log: ${body}`)).toBe('log: [redacted]');
  });

  it('does not mask the ordinary lines of a multi-line value that is not PEM', () => {
    registerSecret('{\n  "namespace": "openstack",\n  "token": "abc"\n}');
    expect(redact('"namespace": "openstack",')).toBe('"namespace": "openstack",');
  });

  it('ignores values too short to be told apart from ordinary text', () => {
    registerSecret('abc');
    expect(redact('abc')).toBe('abc');
  });
});
