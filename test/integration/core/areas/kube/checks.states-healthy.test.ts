/**
 * Healthy platforms, as cert-manager v1.15 leaves them, in the Kubernetes API emulation read by the real
 * kubectl: self-signed, CA, ACME (HTTP-01 and a route53 wildcard), venafi, a supplied wildcard, and the
 * octavia and libvirt CA issuers of openstack. Every kube check is ok (or not called for): nothing warns,
 * so `doctor --strict` is green.
 */
import { describe, expect, it } from 'vitest';
import { healthyStates } from '../../../../helpers/cert-manager-states.js';
import { useKubeCluster } from '../../../../helpers/kube-cluster.js';
import { doctorOn } from '../../../../helpers/kube-states-run.js';

const kube = useKubeCluster();

describe('healthy platforms: every kube check ok', () => {
  it.each(healthyStates().map((s) => [s.name, s] as const))('%s', async (_, state) => {
    const r = await doctorOn(kube, state);
    const notOk = Object.values(r).filter(
      (c) => c.status !== 'ok' && !(c.status === 'skip' && c.reason?.code === 'not-applicable'),
    );
    expect(notOk.map((c) => [c.id, c.status, c.message])).toEqual([]);
    for (const id of ['kube.cert-manager', 'kube.webhook', 'kube.issuers', 'kube.certificates', 'kube.ingress-secrets'])
      expect([id, r[id]!.status]).toEqual([id, 'ok']);
  });

  it('the self-signed platform is self-signed, not "Ready but of type ca"', async () => {
    const r = await doctorOn(kube, healthyStates()[0]!);
    expect(r['kube.issuer']).toMatchObject({ status: 'ok', facts: { type: 'self-signed', reason: 'KeyPairVerified' } });
    // Its CA Certificate in cert-manager's namespace is one of the platform's Certificates.
    expect(r['kube.certificates']!.certificates!.map((c) => c.source)).toContain(
      'cert-manager/cert-manager-selfsigned-ca',
    );
  });

  it("judges the openstack namespace's CA issuers and the ClusterIssuer self-signed like the platform's issuer", async () => {
    const r = await doctorOn(
      kube,
      healthyStates().find((s) => s.name.includes('octavia'))!,
    );
    const issuers = (r['kube.issuers']!.facts!.issuers as { issuer: string; type: string; status: string }[])
      .map((i) => `${i.issuer} ${i.type} ${i.status}`)
      .sort();
    expect(issuers).toEqual([
      'ClusterIssuer self-signed selfSigned ok',
      'Issuer openstack/libvirt-api ca ok',
      'Issuer openstack/libvirt-vnc ca ok',
      'Issuer openstack/octavia-client ca ok',
      'Issuer openstack/octavia-server ca ok',
    ]);
  });
});
