/**
 * A Kubernetes API emulation per test, made the cluster of the run (KUBECONFIG in process.env) and
 * stopped after each test, with the doctor's input and the keyless-DNS inventory the kube tests share.
 */
import { afterEach } from 'vitest';
import { startKubeApi, type KubeApi, type KubeState } from '../servers/kube-api.js';
import { doctorInput as baseInput, writeTemp } from './doctor-run.js';

export function useKubeCluster(): { start(state: KubeState): Promise<KubeApi>; readonly api: KubeApi | undefined } {
  let api: KubeApi | undefined;
  afterEach(async () => {
    await api?.stop();
    api = undefined;
    delete process.env.KUBECONFIG;
  });
  return {
    async start(state) {
      api = await startKubeApi(state);
      Object.assign(process.env, api.env);
      return api;
    },
    get api() {
      return api;
    },
  };
}

/** As the doctor runs the checks: with the run's environment (KUBECONFIG of the test cluster). */
export const kubeDoctorInput = (
  flags: Parameters<typeof baseInput>[0],
  options: Parameters<typeof baseInput>[1] = {},
) => baseInput(flags, { env: { ...process.env }, ...options });

/** An inventory with keyless route53 (auth kubernetes) and its service account dns-sa. */
export const keylessInventory = () =>
  writeTemp(
    'certificates.yml',
    'cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_auth: kubernetes\ncluster_issuer_acme_route53_service_account_name: dns-sa\n',
  );
