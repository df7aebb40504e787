import type { CheckOutcome, DoctorReport } from '../../src/core/doctor/types.js';

export const outcome = (
  id: string,
  status: CheckOutcome['status'],
  facts?: Record<string, unknown>,
  extra: Partial<CheckOutcome> = {},
): CheckOutcome => ({
  id,
  group: id.split('.')[0]!,
  title: extra.title ?? id,
  status,
  message: `${id} is ${status}`,
  durationMs: 12,
  ...(facts ? { facts } : {}),
  ...extra,
});

/** A run with every kind of detail the exporter reads. */
export function fullReport(): DoctorReport {
  const checks: CheckOutcome[] = [
    outcome(
      'certificate.validity',
      'ok',
      {
        notAfter: '2030-01-01T00:00:00.000Z',
        chain: [
          { block: 1, name: '*.cloud.example', notAfter: '2030-01-01T00:00:00.000Z', daysLeft: 100 },
          { block: 2, name: 'Example Intermediate', notAfter: '2032-01-01T00:00:00.000Z', daysLeft: 800 },
        ],
      },
      { title: 'wildcard.pem: validity and expiry' },
    ),
    outcome('certificate.chain-order', 'ok', { problems: [] }, { title: 'wildcard.pem: chain order' }),
    outcome('tls.keystone.cloud.example', 'warn', {
      endpoint: 'keystone.cloud.example:443',
      subject: 'keystone.cloud.example',
      notAfter: '2029-06-01T00:00:00.000Z',
      chain: [{ subject: 'keystone.cloud.example', issuer: 'R1', notAfter: '2029-06-01T00:00:00.000Z' }],
    }),
    outcome('kube.certificates', 'ok', {
      certificates: [{ name: 'keystone-tls', secret: 'keystone-tls-secret', notAfter: '2029-07-01T00:00:00Z' }],
    }),
    outcome('kube.wildcard-secret', 'fail', {
      secret: 'openstack/wildcard',
      chain: [{ name: 'say "hi"\\ \nthere', notAfter: '2028-01-01T00:00:00.000Z' }],
    }),
    outcome('discovery.tls', 'ok', {
      hosts: [
        { host: 'oidc.example:443', chain: [{ subject: 'CN=oidc.example', notAfter: '2029-01-01T00:00:00.000Z' }] },
      ],
    }),
    outcome('signin.idp-token', 'skip', undefined, {
      reason: { code: 'not-applicable', text: 'Not needed: the subject token is given.' },
    }),
    outcome('signin.exchange', 'ok', { expires_in: 300 }, { tokenExpiresAt: '2026-01-01T00:05:00.000Z' }),
    outcome(
      'signin.federated',
      'ok',
      { expires_at: '2027-01-01T00:00:00Z' },
      { tokenExpiresAt: '2027-01-01T00:00:00Z' },
    ),
    outcome('signin.projects', 'warn'),
    outcome('signin.scope', 'ok', { expires_at: '2027-01-01T01:00:00Z' }, { tokenExpiresAt: '2027-01-01T01:00:00Z' }),
    outcome('signin.api', 'ok'),
  ];
  return { schema: 'cloudgate.doctor/v1', durationMs: 812, summary: { ok: 8, warn: 2, fail: 1, skip: 1 }, checks };
}
