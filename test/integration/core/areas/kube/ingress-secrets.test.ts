/**
 * kube.ingress-secrets reads each ingress's tls[].secretName from the cluster and asks kubectl for
 * those secrets: a name is always a name, never a kubectl flag (the real kubectl against the API emulation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, needsKubectl } from '../../../../helpers/has-kubectl.js';
import { readOtherSecrets, type SecretLookup } from '../../../../../src/core/areas/kube/ingress-secrets.js';
import { KubeState, namespace, startKubeApi, type KubeApi, type KubeObject } from '../../../../servers/kube-api.js';

const ingress = (name: string, secretName: string): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name, namespace: 'openstack' },
  spec: {
    tls: [{ hosts: [`${name}.cloud.example.test`], secretName }],
    rules: [{ host: `${name}.cloud.example.test` }],
  },
});

const secret = (ns: string, name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'kubernetes.io/tls',
  metadata: { name, namespace: ns },
  data: { 'tls.crt': '', 'tls.key': 'a2V5' },
});

describe.skipIf(!hasKubectl)(`a tls secretName that looks like a kubectl flag${needsKubectl}`, () => {
  let api: KubeApi;
  beforeAll(async () => {
    api = await startKubeApi(
      new KubeState().add(
        namespace('openstack'),
        namespace('auth-system'),
        namespace('monitoring'),
        ingress('keystone', '--all-namespaces'),
        secret('auth-system', 'elsewhere-certs'),
      ),
    );
  });
  afterAll(() => api?.stop());

  it('is looked up by name in the ingress namespace, not read as --all-namespaces', async () => {
    const found = new Map<string, SecretLookup>();
    await readOtherSecrets(
      'openstack',
      ['--all-namespaces'],
      { env: { ...process.env, ...api.env }, timeoutMs: 20_000 },
      found,
    );
    const secretReads = api.state.requests.filter((r) => r.method === 'GET' && /\/secrets/.test(r.path));
    expect(secretReads.map((r) => r.path)).not.toContain('/api/v1/secrets');
    expect(secretReads.every((r) => r.path.startsWith('/api/v1/namespaces/openstack/secrets'))).toBe(true);
    expect(found.get('openstack/--all-namespaces')).toEqual({ state: 'missing' });
  });
});
