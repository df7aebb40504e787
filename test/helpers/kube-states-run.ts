/** Runs the doctor's kube group on one cluster state, in the Kubernetes API emulation with the real kubectl. */
import { provideChecks } from '../../src/core/areas/kube/checks.js';
import type { CheckOutcome } from '../../src/core/doctor/types.js';
import { KubeState } from '../servers/kube-api.js';
import type { ClusterState } from './cert-manager-states.js';
import { run, writeTemp } from './doctor-run.js';
import { kubeDoctorInput, type useKubeCluster } from './kube-cluster.js';

export async function doctorOn(
  kube: ReturnType<typeof useKubeCluster>,
  state: ClusterState,
): Promise<Record<string, CheckOutcome>> {
  const api = new KubeState().add(...state.objects);
  state.tune?.(api);
  await kube.start(api);
  return run(provideChecks, kubeDoctorInput({}, { inventory: writeTemp('certificates.yml', state.inventory) }));
}

/** The causes kube.certificates, kube.issuer, kube.issuers and kube.webhook name, by check. */
export function causesOf(r: Record<string, CheckOutcome>): Record<string, string[]> {
  const list = (id: string, key: string) => {
    const rows = r[id]?.facts?.[key];
    return Array.isArray(rows)
      ? rows.map((row: { cause?: string }) => row.cause).filter((c): c is string => Boolean(c))
      : [];
  };
  const one = (id: string) => (typeof r[id]?.facts?.cause === 'string' ? [String(r[id]!.facts!.cause)] : []);
  return {
    'kube.certificates': list('kube.certificates', 'certificates'),
    'kube.issuers': list('kube.issuers', 'issuers'),
    'kube.issuer': one('kube.issuer'),
    'kube.webhook': one('kube.webhook'),
  };
}
