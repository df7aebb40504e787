import { describe, expect, it } from 'vitest';
import { normalizeThumbprint } from '../../../../src/core/oidc/thumbprint.js';

describe('thumbprint', () => {
  it('normalises a SHA-1 thumbprint', () => {
    expect(normalizeThumbprint('AB:CD:' + 'ef'.repeat(18))).toBe('abcd' + 'ef'.repeat(18));
    expect(normalizeThumbprint('abc')).toBeUndefined();
  });
});
