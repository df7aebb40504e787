import { afterEach, describe, expect, it } from 'vitest';
import { clearSecretsForTests, redact, redactUrlCredentials, registerSecret } from '../../../src/core/secrets.js';

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

describe('credentials inside URLs', () => {
  it.each([
    ['https://admin:hunter2@keystone.example/v3', 'https://[redacted]@keystone.example/v3'],
    ['Location: https://tok3n@evil.example/x', 'Location: https://[redacted]@evil.example/x'],
    ['GET https://api.example/v1?access_token=abc.def&limit=5', 'GET https://api.example/v1?access_token=[redacted]&limit=5'],
    ['https://s3.example/b/k?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=deadbeef', 'https://s3.example/b/k?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]'],
    ['{"url":"https://u:p@h/?token=t"}', '{"url":"https://[redacted]@h/?token=[redacted]"}'],
  ])('%s', (text, expected) => {
    expect(redactUrlCredentials(text)).toBe(expected);
    expect(redact(text)).toBe(expected);
  });

  it('leaves URLs without credentials, and e-mail addresses, as they are', () => {
    const text = 'https://api.example/v1/servers?limit=5&marker=x ops@example.com https://h/p@q';
    expect(redact(text)).toBe(text);
  });
});

