import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { provideChecks } from '../../../../../src/core/areas/discovery/checks.js';
import { KubeState, namespace, startKubeApi, type KubeApi, type KubeObject } from '../../../../servers/kube-api.js';
import { doctorInput, run, writeTemp } from '../../../../helpers/doctor-run.js';
import { hasKubectl, needsKubectl } from '../../../../helpers/has-kubectl.js';

const ISSUER = 'https://oidc.example.com/cluster1';
const GOOD = {
  'service-account-issuer': [ISSUER, 'https://kubernetes.default.svc.cluster.local'],
  'service-account-jwks-uri': [`${ISSUER}/openid/v1/jwks`],
  'api-audiences': ['https://kubernetes.default.svc.cluster.local,sts.amazonaws.com'],
};
type Flags = Record<string, string[]>;

/** kubeadm-config as `kubeadm init` stores it; v1beta4 lists extraArgs as {name, value}, v1beta3 as a map. */
function kubeadmConfig(flags: Flags, version: 'v1beta3' | 'v1beta4' = 'v1beta4'): KubeObject {
  const extraArgs =
    version === 'v1beta4'
      ? Object.entries(flags).flatMap(([name, values]) => values.map((value) => ({ name, value })))
      : Object.fromEntries(Object.entries(flags).map(([name, values]) => [name, values[0]]));
  const clusterConfiguration = {
    apiVersion: `kubeadm.k8s.io/${version}`,
    kind: 'ClusterConfiguration',
    kubernetesVersion: 'v1.32.4',
    apiServer: { extraArgs },
  };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kubeadm-config', namespace: 'kube-system' },
    data: { ClusterConfiguration: toYaml(clusterConfiguration) },
  };
}

/** A static kube-apiserver pod as the kubelet mirrors it: flags in the container command. */
function apiserverPod(node: string, flags: Flags): KubeObject {
  const command = [
    'kube-apiserver',
    '--advertise-address=10.0.0.1',
    '--secure-port=6443',
    ...Object.entries(flags).flatMap(([name, values]) => values.map((v) => `--${name}=${v}`)),
  ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `kube-apiserver-${node}`,
      namespace: 'kube-system',
      labels: { component: 'kube-apiserver', tier: 'control-plane' },
    },
    spec: {
      nodeName: node,
      containers: [{ name: 'kube-apiserver', image: 'registry.k8s.io/kube-apiserver:v1.32.4', command }],
    },
  };
}

describe.skipIf(!hasKubectl)(`discovery.apiserver-flags against the Kubernetes API with kubectl${needsKubectl}`, () => {
  let api: KubeApi;
  beforeAll(async () => {
    api = await startKubeApi(new KubeState());
  });
  afterAll(async () => {
    await api?.stop();
  });

  async function check(objects: KubeObject[], flags: Record<string, string> = { 'issuer-url': ISSUER }) {
    api.state.objects = [];
    api.state.add(namespace('kube-system'), ...objects);
    const inventory = writeTemp(
      'certificates.yml',
      'cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_auth: kubernetes\n',
    );
    // The cluster is named only in the run's environment (KUBECONFIG), as `doctor` passes it on.
    const r = await run(
      provideChecks,
      doctorInput(flags, {
        inventory,
        env: { ...process.env, ...api.env, CLOUDGATE_STS_ENDPOINT: 'https://127.0.0.1:9' },
      }),
    );
    return r['discovery.apiserver-flags'];
  }

  it('passes when kubeadm-config (v1beta4 list form) and every control plane agree with the public issuer', async () => {
    const result = await check([
      kubeadmConfig(GOOD),
      apiserverPod('cp-1', GOOD),
      apiserverPod('cp-2', GOOD),
      apiserverPod('cp-3', GOOD),
    ]);
    expect(result.status).toBe('ok');
    expect(result.message).toContain('3 control plane(s) (cp-1, cp-2, cp-3)');
    expect(result.message).toContain('kubeadm-config');
  });

  it('passes with the v1beta3 map form', async () => {
    const single = { ...GOOD, 'service-account-issuer': [ISSUER] };
    expect((await check([kubeadmConfig(single, 'v1beta3'), apiserverPod('cp-1', single)])).status).toBe('ok');
  });

  it('fails when one control plane disagrees, naming the node', async () => {
    const old = { ...GOOD, 'service-account-issuer': ['https://kubernetes.default.svc.cluster.local'] };
    const result = await check([
      kubeadmConfig(GOOD),
      apiserverPod('cp-1', GOOD),
      apiserverPod('cp-2', old),
      apiserverPod('cp-3', GOOD),
    ]);
    expect(result.status).toBe('fail');
    expect(result.message).toContain('disagree on --service-account-issuer');
    expect(result.message).toContain(`cp-2: --service-account-issuer lacks ${ISSUER}`);
    expect(result.message).not.toContain('cp-1: --service-account-issuer lacks');
    expect(result.advice).toContain(`--service-account-jwks-uri=${ISSUER}/openid/v1/jwks`);
  });

  it('fails when --service-account-jwks-uri is missing everywhere', async () => {
    const { 'service-account-jwks-uri': _omitted, ...noJwks } = GOOD;
    const result = await check([kubeadmConfig(noJwks), apiserverPod('cp-1', noJwks)]);
    expect(result.status).toBe('fail');
    expect(result.message).toContain('cp-1: --service-account-jwks-uri is unset');
  });

  it('warns about flags on the pods that kubeadm-config does not have (lost on upgrade)', async () => {
    const result = await check([kubeadmConfig({}), apiserverPod('cp-1', GOOD), apiserverPod('cp-2', GOOD)]);
    expect(result.status).toBe('warn');
    expect(result.message).toContain('--service-account-issuer on cp-1');
    expect(result.message).toContain('not in kubeadm-config');
    expect(result.message).toContain('lost at the next kubeadm upgrade');
    expect(result.advice).toContain('apiServer.extraArgs');
  });

  it('without kubeadm-config or an issuer URL compares the control planes with each other', async () => {
    const result = await check([apiserverPod('cp-1', GOOD), apiserverPod('cp-2', GOOD)], {});
    expect(result.status).toBe('ok');
    expect(result.message).toContain('not a kubeadm cluster');
    expect(result.message).toContain('no --issuer-url');
  });

  it('fails on a kubeadm-config whose ClusterConfiguration is not YAML', async () => {
    const broken = kubeadmConfig(GOOD);
    broken.data = { ClusterConfiguration: 'apiServer: [unclosed' };
    const result = await check([broken, apiserverPod('cp-1', GOOD)]);
    expect(result.status).toBe('fail');
    expect(result.message).toContain('not valid YAML');
    expect(result.advice).toContain('edit configmap kubeadm-config');
  });

  it('reads a ClusterConfiguration with an odd tag without any YAML library warning reaching the output', async () => {
    const tagged = kubeadmConfig(GOOD);
    const data = tagged.data as { ClusterConfiguration: string };
    tagged.data = {
      ClusterConfiguration: `${data.ClusterConfiguration}etcd: !odd-tag\n  local: {dataDir: /var/lib/etcd-secret-line}\n`,
    };
    const emitWarning = vi.spyOn(process, 'emitWarning');
    const warn = vi.spyOn(console, 'warn');
    try {
      const result = await check([tagged, apiserverPod('cp-1', GOOD)]);
      expect(result.status).toBe('ok');
      expect(result.message).toContain('kubeadm-config');
      expect(emitWarning).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      emitWarning.mockRestore();
      warn.mockRestore();
    }
  });

  it('skips when no API server pod is visible', async () => {
    expect((await check([kubeadmConfig(GOOD)])).status).toBe('skip');
  });
});
