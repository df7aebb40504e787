/** The events of one object, from the run's one list of events. */
import { describe, expect, it } from 'vitest';
import { eventsOf, latestEvent, recentEvents } from '../../../../../src/core/areas/kube/events.js';
import { certificate, event } from '../../../../helpers/cert-manager-objects.js';

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

describe('events of an object', () => {
  it('are its own (kind, namespace, name), newest first', () => {
    const nova = certificate('nova-api');
    const events = [
      { ...event(nova, 'Issuing', 'first', 'Normal'), lastTimestamp: iso(120_000) },
      { ...event(nova, 'Failed', 'second'), lastTimestamp: iso(0) },
      event(certificate('other'), 'Issuing', 'not this one'),
    ];
    expect(recentEvents(events, nova)).toEqual(['Warning Failed: second', 'Normal Issuing: first']);
    expect(latestEvent(events, nova, 'Normal')).toMatchObject({ reason: 'Issuing', message: 'first' });
    expect(latestEvent(events, nova, 'Warning', 'Solver')).toBeUndefined();
  });

  it('of a cluster-scoped object are those with no namespace', () => {
    const issuer = { kind: 'ClusterIssuer', metadata: { name: 'atmosphere' } };
    const events = [
      {
        kind: 'Event',
        metadata: { name: 'e', namespace: 'default' },
        involvedObject: { kind: 'ClusterIssuer', name: 'atmosphere' },
        type: 'Warning',
        reason: 'ErrGetKeyPair',
        message: 'Error getting keypair for CA issuer: secret "x" not found',
      },
    ];
    expect(eventsOf(events, issuer)).toEqual([expect.objectContaining({ reason: 'ErrGetKeyPair' })]);
  });
});
