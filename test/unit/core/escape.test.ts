import { describe, expect, it } from 'vitest';
import { escapeControl, escapeLine, stringifyJson } from '../../../src/core/escape.js';

describe('format characters never reach the terminal', () => {
  const FORMAT = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c', '\u2028', '\u2029'];

  it.each(FORMAT)('U+%s is shown as its code, in both escapes and in JSON', (ch) => {
    const code = `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
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
