import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lineWriter, preview } from '../../../../src/core/net/http-log.js';
import { registerSecret } from '../../../../src/core/secrets.js';

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
