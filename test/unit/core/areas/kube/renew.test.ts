/** The Issuing condition renew sets, as cmctl renew sets it. */
import { describe, expect, it } from 'vitest';
import { triggeredConditions } from '../../../../../src/core/areas/kube/renew.js';

const NOW = new Date('2031-01-10T12:00:00.123Z');
const ready = {
  type: 'Ready',
  status: 'True',
  reason: 'Ready',
  message: 'Certificate is up to date and has not expired',
  observedGeneration: 2,
};

describe('triggeredConditions', () => {
  it('adds Issuing True, reason ManuallyTriggered, of the current generation, keeping the others', () => {
    expect(triggeredConditions({ metadata: { generation: 2 }, status: { conditions: [ready] } }, NOW)).toEqual([
      ready,
      {
        type: 'Issuing',
        status: 'True',
        reason: 'ManuallyTriggered',
        message: 'Certificate re-issuance manually triggered',
        lastTransitionTime: '2031-01-10T12:00:00Z',
        observedGeneration: 2,
      },
    ]);
  });

  it('replaces a False Issuing condition in its place', () => {
    const failed = { type: 'Issuing', status: 'False', reason: 'Failed', message: 'x' };
    const conditions = triggeredConditions({ metadata: {}, status: { conditions: [failed, ready] } }, NOW);
    expect(conditions.map((c) => (c as { type: string; reason: string }).reason)).toEqual([
      'ManuallyTriggered',
      'Ready',
    ]);
  });
});
