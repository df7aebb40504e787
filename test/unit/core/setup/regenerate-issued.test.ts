import { describe, expect, it } from 'vitest';
import { issuedByCurrent, specChangedAt, subjectOf } from '../../../../src/core/setup/regenerate-issued.js';
import { issue } from '../../../helpers/pki.js';

describe('which secrets the current issuer already issued', () => {
  const newCa = issue({ cn: 'new ca', ca: true });
  const oldCa = issue({ cn: 'old ca', ca: true });
  const current = { issuerSubject: subjectOf(newCa.cert) };

  it('a certificate signed by the new CA is kept; one signed by the old CA is not', () => {
    expect(issuedByCurrent({ certificatePem: issue({ cn: 'a', issuer: newCa }).cert }, current)).toMatch(
      /already issued by the current issuer/,
    );
    expect(issuedByCurrent({ certificatePem: issue({ cn: 'a', issuer: oldCa }).cert }, current)).toBeUndefined();
  });

  it('without a known issuer subject, a secret created after the issuer changed is kept', () => {
    const changedAt = new Date('2026-06-01T00:00:00Z');
    expect(issuedByCurrent({ createdAt: '2026-06-02T00:00:00Z' }, { changedAt })).toMatch(/after the issuer changed/);
    expect(issuedByCurrent({ createdAt: '2026-05-01T00:00:00Z' }, { changedAt })).toBeUndefined();
    expect(issuedByCurrent({}, { changedAt })).toBeUndefined();
  });

  it('the issuer changed at its newest spec update, else at its creation', () => {
    expect(
      specChangedAt({
        metadata: {
          creationTimestamp: '2026-01-01T00:00:00Z',
          managedFields: [
            { time: '2026-03-01T00:00:00Z', fieldsV1: { 'f:spec': {} } },
            { time: '2026-04-01T00:00:00Z', fieldsV1: { 'f:status': {} } },
          ],
        },
      })?.toISOString(),
    ).toBe('2026-03-01T00:00:00.000Z');
    expect(specChangedAt({ metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } })?.toISOString()).toBe(
      '2026-01-01T00:00:00.000Z',
    );
  });
});
