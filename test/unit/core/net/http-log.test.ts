import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { lineWriter, preview, redactBody, redactHeaders } from '../../../../src/core/net/http-log.js';
import { clearSecretsForTests, registerSecret } from '../../../../src/core/secrets.js';

afterEach(() => clearSecretsForTests());

describe('verbose line redaction', () => {
  it('masks credential headers but keeps the scheme and the rest', () => {
    expect(
      redactHeaders({
        Authorization: 'Bearer abc.def.ghi',
        'X-Auth-Token': 'gAAAA123',
        'Content-Type': 'application/json',
        Date: 'x',
      }),
    ).toEqual(['authorization: Bearer [redacted]', 'x-auth-token: [redacted]', 'content-type: application/json']);
  });

  it('masks secret form fields and keeps the others readable', () => {
    const body =
      'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&client_id=cg&client_secret=s3cr%26t&subject_token=eyJ.x.y';
    expect(redactBody(body, 'application/x-www-form-urlencoded')).toBe(
      'grant_type=urn:ietf:params:oauth:grant-type:token-exchange&client_id=cg&client_secret=[redacted]&subject_token=[redacted]',
    );
  });

  it("masks Keystone's token id and OAuth tokens in JSON, not every id", () => {
    const body = JSON.stringify({
      auth: { identity: { methods: ['token'], token: { id: 'gAAAAAfernet' } }, scope: { project: { id: 'p1' } } },
    });
    expect(redactBody(body, 'application/json')).toBe(
      '{"auth":{"identity":{"methods":["token"],"token":{"id":"[redacted]"}},"scope":{"project":{"id":"p1"}}}}',
    );
    expect(redactBody('{"access_token":"a","refresh_token":"r","expires_in":300}', 'application/json')).toBe(
      '{"access_token":"[redacted]","refresh_token":"[redacted]","expires_in":300}',
    );
  });

  it('passes other text through the secret registry and shortens long bodies', () => {
    registerSecret('registered-secret');
    expect(redactBody('error: registered-secret was wrong', 'text/plain')).toBe('error: [redacted] was wrong');
    expect(preview('x'.repeat(1000))).toMatch(/^x{300}… \(1000 bytes\)$/);
  });
});

describe('log lines', () => {
  it('are redacted and have their control characters escaped', () => {
    registerSecret('s3cr3t-value-for-log');
    const stream = new PassThrough();
    lineWriter(stream)('body: \x1b]0;owned\x07 s3cr3t-value-for-log \u009b2J');
    const written = String(stream.read());
    expect(written).toBe('body: \\x1b]0;owned\\x07 [redacted] \\x9b2J\n');
  });

  it('body previews escape control characters', () => {
    expect(preview('error\x1b[2J\r\nmore')).toBe('error\\x1b[2J more');
  });
});
