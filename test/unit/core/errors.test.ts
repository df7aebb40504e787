import { describe, expect, it } from 'vitest';
import { codeOf, messageOf, UsageError } from '../../../src/core/errors.js';

describe('what a caught value says', () => {
  it('messageOf gives an Error its message and anything else as text', () => {
    expect(messageOf(new UsageError('bad flag', 'advice'))).toBe('bad flag');
    expect(messageOf('plain string')).toBe('plain string');
    expect(messageOf(undefined)).toBe('undefined');
  });

  it('codeOf gives the code Node puts on an error, and undefined when there is none or it is no string', () => {
    expect(codeOf(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(codeOf(new Error('plain'))).toBeUndefined();
    expect(codeOf({ code: 42 })).toBeUndefined();
    expect(codeOf(null)).toBeUndefined();
  });
});
