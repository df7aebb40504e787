/**
 * States cert-manager is still working on, as v1.15 leaves them: none fails, none asks the operator to
 * do what cert-manager is doing, and one whose current certificate still serves is ok.
 */
import { describe, expect, it } from 'vitest';
import { transientStates } from '../../../../helpers/cert-manager-states.js';
import { useKubeCluster } from '../../../../helpers/kube-cluster.js';
import { causesOf, doctorOn } from '../../../../helpers/kube-states-run.js';

const kube = useKubeCluster();

/** State → kube.certificates' status, the cause it names, and what its message and advice say (or must not). */
const EXPECTED: Record<
  string,
  { status: 'ok' | 'warn'; cause?: string; message?: RegExp; advice?: RegExp; never?: RegExp }
> = {
  'first issuance, DNS-01 record not yet propagated': {
    status: 'warn',
    cause: 'dns-propagation',
    message: /cert-manager is issuing it/,
    advice: /Nothing to do/,
  },
  'renewal under way, the current certificate valid': { status: 'ok', message: /renewing openstack\/glance-api/ },
  'issuer changed, cert-manager re-issuing': {
    status: 'warn',
    message: /issuing it \(its secret was issued by another issuer\)/,
    never: /delete|regenerate/i,
  },
  'rate-limited renewal, the current certificate valid': {
    status: 'warn',
    cause: 'acme:rateLimited',
    advice: /Do not delete anything/,
    never: /port 80|cloudgate renew/,
  },
  'renewal asked for by hand (cloudgate renew)': { status: 'ok', message: /renewing openstack\/glance-api/ },
  'first issuance, HTTP-01 challenge just scheduled': {
    status: 'warn',
    cause: 'challenge-pending',
    advice: /Nothing to do/,
  },
};

describe('states cert-manager is working on', () => {
  it('every transient state has its expectation', () => {
    expect(
      transientStates()
        .map((s) => s.name)
        .sort(),
    ).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(transientStates().map((s) => [s.name, s] as const))('%s', async (name, state) => {
    const want = EXPECTED[name]!;
    const r = await doctorOn(kube, state);
    const failed = Object.values(r)
      .filter((c) => c.status === 'fail')
      .map((c) => [c.id, c.message]);
    expect(failed).toEqual([]);
    for (const id of ['kube.cert-manager', 'kube.webhook', 'kube.issuer', 'kube.issuers', 'kube.ingress-secrets'])
      expect([id, r[id]!.status]).toEqual([id, 'ok']);
    const certificates = r['kube.certificates']!;
    expect(certificates.status).toBe(want.status);
    if (want.cause) expect(causesOf(r)['kube.certificates']).toContain(want.cause);
    if (want.message) expect(certificates.message).toMatch(want.message);
    if (want.advice) expect(certificates.advice).toMatch(want.advice);
    if (want.never) expect(`${certificates.message} ${certificates.advice ?? ''}`).not.toMatch(want.never);
  });
});
