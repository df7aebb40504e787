import { describe, expect, it } from 'vitest';
import { withOptions } from '../../../../src/core/kube/kubectl.js';

describe('withOptions', () => {
  it('puts options before the -- that ends them', () => {
    expect(withOptions(['get', 'secret', '--', '-x'], '-o', 'json')).toEqual(['get', 'secret', '-o', 'json', '--', '-x']);
    expect(withOptions(['get', 'secrets'], '-o', 'json')).toEqual(['get', 'secrets', '-o', 'json']);
  });
});
