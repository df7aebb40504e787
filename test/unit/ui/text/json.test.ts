import { describe, expect, it } from 'vitest';
import { CONTROL, HOSTILE, hostileReport as report } from '../../../helpers/hostile-report.js';
import { renderJson } from '../../../../src/ui/text/json.js';

describe('JSON report', () => {
  it('escapes C1 controls too, and parses back to the same text', () => {
    const json = renderJson(report);
    expect(json).not.toMatch(CONTROL);
    expect(Buffer.from(json).includes(0x9b)).toBe(false);
    expect((JSON.parse(json) as { checks: { message: string }[] }).checks[0]!.message).toContain(HOSTILE);
  });

  it('keeps schema v1 and adds the typed facts of a check: reason, subject, certificates, stuck', () => {
    const json = renderJson({
      schema: 'cloudgate.doctor/v1',
      durationMs: 1,
      summary: { ok: 0, warn: 0, fail: 1, skip: 1 },
      checks: [
        {
          id: 'kube.issuer',
          group: 'kube',
          title: 't',
          status: 'skip',
          message: 'm',
          durationMs: 0,
          reason: { code: 'no-cluster', text: 'pass --context' },
        },
        {
          id: 'kube.certificates',
          group: 'kube',
          title: 't',
          status: 'fail',
          message: 'm',
          durationMs: 0,
          subject: { kind: 'Certificate', namespace: 'openstack', name: 'keystone' },
          certificates: [
            { source: 'openstack/keystone-tls', subject: 'CN=keystone', notAfter: '2030-01-01T00:00:00.000Z' },
          ],
          stuck: { step: 'challenge', object: 'Challenge openstack/keystone-1', reason: 'pending' },
        },
      ],
    });
    const doc = JSON.parse(json);
    expect(doc.schema).toBe('cloudgate.doctor/v1');
    expect(doc.checks[0].reason).toEqual({ code: 'no-cluster', text: 'pass --context' });
    expect(doc.checks[1]).toMatchObject({
      subject: { name: 'keystone' },
      certificates: [{ source: 'openstack/keystone-tls' }],
      stuck: { step: 'challenge' },
    });
  });
});
