import { describe, expect, it } from 'vitest';
import { conditionOf } from '../../../../src/core/kube/platform.js';

describe('cert-manager conditions', () => {
  it('finds a condition by type, and nothing in an object without conditions', () => {
    const issuer = { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ErrRegisterACMEAccount' }] } };
    expect(conditionOf(issuer, 'Ready')).toMatchObject({ status: 'False', reason: 'ErrRegisterACMEAccount' });
    expect(conditionOf(issuer, 'Denied')).toBeUndefined();
    for (const object of [undefined, null, {}, { status: {} }, { status: { conditions: 'Ready' } }]) expect(conditionOf(object, 'Ready')).toBeUndefined();
  });
});
