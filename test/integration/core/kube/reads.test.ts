/** The kube checks' shared reads against the Kubernetes API test server with the real kubectl. */
import { describe, expect, it } from 'vitest';
import { clusterReads } from '../../../../src/core/kube/reads.js';
import { useKubeCluster } from '../../../helpers/kube-cluster.js';
import { certificate, certManagerCluster } from '../../../helpers/cert-manager-objects.js';
import { KubeState, namespace } from '../../../servers/kube-api.js';

const kube = useKubeCluster();

describe('clusterReads', () => {
  it('reads each list once per run, whoever asks, with the kind on every item', async () => {
    const api = await kube.start(
      new KubeState().add(
        ...certManagerCluster(),
        certificate('nova-api'),
        certificate('sso', { namespace: 'auth-system' }),
      ),
    );
    const reads = clusterReads({ env: { ...process.env, ...api.env }, timeoutMs: 20_000 });
    expect((await reads.available()).ok).toBe(true);
    const [a, b] = await Promise.all([reads.list('certManager'), reads.list('certManager')]);
    expect(a).toBe(b);
    expect(reads.calls).toBe(1);
    expect(
      a.ok &&
        a.items
          .filter((i) => i.kind === 'Certificate')
          .map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`)
          .sort(),
    ).toEqual(['auth-system/sso', 'openstack/nova-api']);
    expect(api.state.requests.filter((q) => q.path === '/apis/cert-manager.io/v1/certificates')).toHaveLength(1);
  });

  it('says when cert-manager is not installed (its kinds are missing), as opposed to a failure', async () => {
    const api = await kube.start(new KubeState().add(namespace('openstack')));
    const list = await clusterReads({ env: { ...process.env, ...api.env }, timeoutMs: 20_000 }).list('certManager');
    expect(list).toMatchObject({ ok: false, missingKind: true });
  });
});
