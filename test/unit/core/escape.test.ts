import { describe, expect, it } from 'vitest';
import { escapeControl, escapeLine, escapeRegExp, stringifyJson } from '../../../src/core/escape.js';

describe('format characters never reach the terminal', () => {
  // The test names carry the code point, never the character: it would act on the terminal of the test run.
  const FORMAT = [
    0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x2028, 0x2029,
  ].map((n) => [n.toString(16).padStart(4, '0'), String.fromCharCode(n)] as const);

  it.each(FORMAT)('U+%s is shown as its code, in both escapes and in JSON', (hex, ch) => {
    const code = `\\u${hex}`;
    expect(escapeLine(`admin${ch}nimda`)).toBe(`admin${code}nimda`);
    expect(escapeControl(`a${ch}b\nc`)).toBe(`a${code}b\nc`);
    const json = stringifyJson({ v: `a${ch}b` });
    expect(json).toBe(`{"v":"a${code}b"}`);
    expect(JSON.parse(json)).toEqual({ v: `a${ch}b` });
  });

  it('keeps ordinary non-ASCII text', () => {
    expect(escapeLine('Zürich – 東京 ✓')).toBe('Zürich – 東京 ✓');
  });

  it('escapes newlines only where text must stay on one line', () => {
    expect(escapeLine('a\nb')).toBe('a\\nb');
    expect(escapeControl('a\nb\x1b[2J')).toBe('a\nb\\x1b[2J');
  });
});

describe('escapeRegExp', () => {
  it('matches the text literally, metacharacters included', () => {
    const name = 'certs.yml(1)+[a]*';
    expect(new RegExp(`^${escapeRegExp(name)}$`).test(name)).toBe(true);
    expect(new RegExp(`^${escapeRegExp('a.b')}$`).test('axb')).toBe(false);
  });
});
