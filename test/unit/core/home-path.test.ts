import { describe, expect, it } from 'vitest';
import { expandTilde, expandVaultId } from '../../../src/core/home-path.js';

describe('~ in a path typed where no shell expands it', () => {
  it('is the home folder, alone or before a slash; anything else is left as typed', () => {
    const env = { HOME: '/home/op' };
    expect(expandTilde('~', env)).toBe('/home/op');
    expect(expandTilde('~/.vault-pass', env)).toBe('/home/op/.vault-pass');
    expect(expandTilde('~other/x', env)).toBe('~other/x');
    expect(expandTilde('rel/~/x', env)).toBe('rel/~/x');
  });

  it('in a vault id, only the file part after the label', () => {
    const env = { HOME: '/home/op' };
    expect(expandVaultId('prod@~/.vault-prod', env)).toBe('prod@/home/op/.vault-prod');
    expect(expandVaultId('~/.vault-pass', env)).toBe('/home/op/.vault-pass');
  });
});
