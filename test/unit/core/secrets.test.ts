import { afterEach, describe, expect, it } from 'vitest';
import {
  clearSecretsForTests,
  redact,
  redactUrlCredentials,
  redactValue,
  registerSecret,
} from '../../../src/core/secrets.js';

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
    [
      'GET https://api.example/v1?access_token=abc.def&limit=5',
      'GET https://api.example/v1?access_token=[redacted]&limit=5',
    ],
    [
      'https://s3.example/b/k?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=deadbeef',
      'https://s3.example/b/k?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]',
    ],
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

describe('every encoding of a secret, and a secret cut short', () => {
  afterEach(() => clearSecretsForTests());
  const SECRET = 'cl1ent"s3cret\\with-quote and space+plus/slash';

  it('masks it as JSON, a form body, a URL (either hex case) and the escapes a terminal shows', () => {
    registerSecret(SECRET);
    for (const form of [
      JSON.stringify(SECRET).slice(1, -1),
      new URLSearchParams({ v: SECRET }).toString().slice(2),
      encodeURIComponent(SECRET),
      encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    ])
      expect(redact(`x ${form} y`), form).toBe('x [redacted] y');
    registerSecret('tok\u001b[2Jen-value');
    expect(redact('got tok\\x1b[2Jen-value')).toBe('got [redacted]');
  });

  it('masks what is left of a long secret cut short (a server that truncates, a preview)', () => {
    registerSecret(SECRET);
    expect(redact(`error: ${SECRET.slice(0, 20)}… (truncated)`)).toBe('error: [redacted]… (truncated)');
    expect(redact(`"${JSON.stringify(SECRET).slice(1, 18)}`)).toBe('"[redacted]');
  });

  it('redacts a value field by field, not as JSON text (a secret with a quote or a backslash)', () => {
    registerSecret(SECRET);
    expect(redactValue({ details: { body: `echo ${SECRET}` }, list: [SECRET] })).toEqual({
      details: { body: 'echo [redacted]' },
      list: ['[redacted]'],
    });
  });
});

describe('a private key masked by its content, registered or not', () => {
  const BODY = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
  it.each([
    ['PKCS#8', `-----BEGIN PRIVATE KEY-----\n${BODY}\n-----END PRIVATE KEY-----`],
    ['RSA', `-----BEGIN RSA PRIVATE KEY-----\n${BODY}\n-----END RSA PRIVATE KEY-----`],
    ['encrypted', `-----BEGIN ENCRYPTED PRIVATE KEY-----\n${BODY}\n-----END ENCRYPTED PRIVATE KEY-----`],
    ['in JSON', JSON.stringify(`-----BEGIN EC PRIVATE KEY-----\n${BODY}\n-----END EC PRIVATE KEY-----`).slice(1, -1)],
    ['cut short', `-----BEGIN OPENSSH PRIVATE KEY-----\n${BODY.slice(0, 30)}`],
  ])('%s', (_, pem) => {
    const out = redact(`before ${pem} after`);
    expect(out).not.toContain(BODY.slice(0, 16));
    expect(out).toMatch(/^before \[redacted\]/);
  });

  it('leaves a certificate alone', () => {
    const cert = `-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----`;
    expect(redact(cert)).toBe(cert);
  });
});
