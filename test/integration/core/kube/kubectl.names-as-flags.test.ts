/** Names that look like flags reach kubectl as names: read and deleted through the real kubectl. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, needsKubectl } from '../../../helpers/has-kubectl.js';
import { kubectl, kubectlJson } from '../../../../src/core/kube/kubectl.js';
import { deleteArgs } from '../../../../src/core/setup/regenerate.js';
import { KubeState, namespace, startKubeApi, type KubeApi, type KubeObject } from '../../../servers/kube-api.js';

const secret = (ns: string, name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'kubernetes.io/tls',
  metadata: { name, namespace: ns },
  data: { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' },
});

describe.skipIf(!hasKubectl)(`a secret whose name starts with "-"${needsKubectl}`, () => {
  let api: KubeApi;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    api = await startKubeApi(
      new KubeState().add(
        namespace('openstack'),
        secret('openstack', '--all'),
        secret('openstack', 'keep-me'),
        secret('openstack', '-o'),
      ),
    );
    env = { ...process.env, ...api.env };
  });
  afterAll(() => api?.stop());

  it('is read by name, not as a flag', async () => {
    const got = await kubectlJson<KubeObject>(['get', 'secret', '--namespace=openstack', '--', '-o'], {
      env,
      timeoutMs: 20_000,
    });
    expect(got.metadata.name).toBe('-o');
  });

  it('is deleted alone: "--all" is not taken as the flag that deletes every secret', async () => {
    const result = await kubectl(deleteArgs({ namespace: 'openstack', name: '--all' }), { env, timeoutMs: 20_000 });
    expect(result.exitCode).toBe(0);
    expect(api.state.deleted.map((o) => o.metadata.name)).toEqual(['--all']);
    expect(api.state.get('Secret', 'keep-me', 'openstack')).toBeDefined();
  });
});
