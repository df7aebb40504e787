/** A condition read with its generation: stale when cert-manager has not looked since the object changed. */
import { describe, expect, it } from 'vitest';
import { objectName, readCondition } from '../../../../src/core/kube/objects.js';

const object = (generation: number | undefined, observedGeneration: number | undefined) => ({
  kind: 'Certificate',
  metadata: { name: 'nova-api', namespace: 'openstack', generation },
  status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', observedGeneration }] },
});

describe('readCondition', () => {
  it.each<[number | undefined, number | undefined, boolean]>([
    [2, 2, false],
    [3, 2, true],
    [undefined, 2, false],
    [2, undefined, false],
    [1, 2, false],
  ])('generation %s, observed %s: stale %s', (generation, observed, stale) => {
    expect(readCondition(object(generation, observed), 'Ready')).toMatchObject({
      status: 'True',
      reason: 'Ready',
      stale,
    });
  });

  it('is undefined for a missing condition or object', () => {
    expect(readCondition(object(1, 1), 'Issuing')).toBeUndefined();
    expect(readCondition(undefined, 'Ready')).toBeUndefined();
  });
});

describe('objectName', () => {
  it('names namespaced and cluster-scoped objects as kind and path', () => {
    expect(objectName(object(1, 1))).toBe('Certificate openstack/nova-api');
    expect(objectName({ kind: 'ClusterIssuer', metadata: { name: 'atmosphere' } })).toBe('ClusterIssuer atmosphere');
  });
});
