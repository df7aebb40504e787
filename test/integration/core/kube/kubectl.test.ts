import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { hasKubectl, needsKubectl } from '../../../helpers/has-kubectl.js';
import {
  kubeAvailability,
  kubectl,
  KubectlError,
  kubectlJson,
  KubectlMissing,
} from '../../../../src/core/kube/kubectl.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  serviceAccount,
  startKubeApi,
  tokenCreatorRbac,
  type KubeApi,
  type KubeObject,
} from '../../../servers/kube-api.js';

const secret = (
  ns: string,
  name: string,
  annotations: Record<string, string> = {},
  labels: Record<string, string> = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'kubernetes.io/tls',
  metadata: { name, namespace: ns, annotations, labels },
  data: { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' },
});

describe.skipIf(!hasKubectl)(`kubectl against the Kubernetes API emulation${needsKubectl}`, () => {
  let api: KubeApi;
  let env: NodeJS.ProcessEnv;
  const opts = () => ({ env, timeoutMs: 20_000 });

  beforeAll(async () => {
    const state = new KubeState().add(
      namespace('openstack'),
      namespace('cert-manager'),
      secret('openstack', 'keystone-api-certs', {
        'cert-manager.io/issuer-name': 'atmosphere',
        'cert-manager.io/issuer-kind': 'ClusterIssuer',
      }),
      secret('openstack', 'unrelated', {}, { app: 'other' }),
      secret('monitoring', 'grafana-tls', { 'cert-manager.io/issuer-name': 'atmosphere' }),
      serviceAccount('cert-manager', 'cert-manager-route53'),
      serviceAccount('cert-manager', 'cert-manager'),
      ...tokenCreatorRbac('cert-manager', 'cert-manager-route53'),
      ...certManagerCrds('v1.15.5'),
    );
    api = await startKubeApi(state);
    env = { ...process.env, ...api.env };
  });
  afterAll(() => api?.stop());

  it('lists secrets across namespaces with their annotations', async () => {
    const list = await kubectlJson<{ items: KubeObject[] }>(['get', 'secrets', '-A'], opts());
    expect(list.items.map((s) => `${s.metadata.namespace}/${s.metadata.name}`).sort()).toEqual([
      'monitoring/grafana-tls',
      'openstack/keystone-api-certs',
      'openstack/unrelated',
    ]);
    expect(
      list.items.find((s) => s.metadata.name === 'keystone-api-certs')?.metadata.annotations?.[
        'cert-manager.io/issuer-name'
      ],
    ).toBe('atmosphere');
  });

  it('filters by label selector and prints a table without -o', async () => {
    const list = await kubectlJson<{ items: KubeObject[] }>(
      ['get', 'secrets', '-n', 'openstack', '-l', 'app=other'],
      opts(),
    );
    expect(list.items.map((s) => s.metadata.name)).toEqual(['unrelated']);
    const table = await kubectl(['get', 'secrets', '-n', 'openstack'], opts());
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toMatch(/NAME\s+AGE/);
    expect(table.stdout).toContain('keystone-api-certs');
  });

  it('deletes a secret, and the deletion is seen on the server side', async () => {
    const result = await kubectl(['delete', 'secret', 'grafana-tls', '-n', 'monitoring'], opts());
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('deleted');
    expect(api.state.get('Secret', 'grafana-tls', 'monitoring')).toBeUndefined();
    expect(api.state.deleted.map((o) => o.metadata.name)).toContain('grafana-tls');
  });

  it('reports a missing object as a non-zero exit, not an exception', async () => {
    const result = await kubectl(['get', 'secret', 'nope', '-n', 'openstack'], opts());
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain('"nope" not found');
  });

  it('applies a Secret client-side (create, then update) and server-side', async () => {
    const manifest = (value: string) =>
      `apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\nmetadata:\n  name: wildcard\n  namespace: openstack\nstringData:\n  tls.crt: ${value}\n  tls.key: k\n`;
    const created = await kubectl(['apply', '--validate=false', '-f', '-'], { ...opts(), input: manifest('one') });
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('secret/wildcard created');
    expect((api.state.get('Secret', 'wildcard', 'openstack')?.data as Record<string, string>)['tls.crt']).toBe(
      Buffer.from('one').toString('base64'),
    );
    const updated = await kubectl(['apply', '--validate=false', '-f', '-'], { ...opts(), input: manifest('two') });
    expect(updated.stdout).toContain('secret/wildcard configured');
    expect((api.state.get('Secret', 'wildcard', 'openstack')?.data as Record<string, string>)['tls.crt']).toBe(
      Buffer.from('two').toString('base64'),
    );
    const serverSide = await kubectl(['apply', '--server-side', '--validate=false', '-f', '-'], {
      ...opts(),
      input: manifest('three').replace('name: wildcard', 'name: ssa'),
    });
    expect(serverSide.stderr).toBe('');
    expect(api.state.get('Secret', 'ssa', 'openstack')).toBeDefined();
  });

  it('issues a token for a service account through TokenRequest', async () => {
    const result = await kubectl(
      ['create', 'token', 'cert-manager-route53', '-n', 'cert-manager', '--audience', 'sts.amazonaws.com'],
      {
        ...opts(),
        secretOutput: true,
      },
    );
    expect(result.stderr).toBe('');
    const claims = JSON.parse(Buffer.from(result.stdout.trim().split('.')[1], 'base64url').toString());
    expect(claims.aud).toEqual(['sts.amazonaws.com']);
    expect(claims.sub).toBe('system:serviceaccount:cert-manager:cert-manager-route53');
  });

  it('answers auth can-i from the Roles and Bindings it holds, for an impersonated user', async () => {
    const ask = (sa: string) =>
      kubectl(
        [
          'auth',
          'can-i',
          'create',
          `serviceaccounts/${sa}`,
          '--subresource=token',
          '--as=system:serviceaccount:cert-manager:cert-manager',
          '-n',
          'cert-manager',
        ],
        opts(),
      );
    const yes = await ask('cert-manager-route53');
    expect(yes.stdout.trim()).toBe('yes');
    expect(yes.exitCode).toBe(0);
    const no = await ask('someone-else');
    expect(no.stdout.trim()).toBe('no');
    expect(no.exitCode).toBe(1);
    expect(api.state.requests.some((r) => r.impersonate === 'system:serviceaccount:cert-manager:cert-manager')).toBe(
      true,
    );
  });

  it('serves CRDs and the custom resources they define', async () => {
    const crd = await kubectlJson<KubeObject>(['get', 'crd', 'certificates.cert-manager.io'], opts());
    expect(crd.metadata.labels?.['app.kubernetes.io/version']).toBe('v1.15.5');
    api.state.add({
      apiVersion: 'cert-manager.io/v1',
      kind: 'ClusterIssuer',
      metadata: { name: 'atmosphere' },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'ACMEAccountRegistered' }] },
    });
    const issuer = await kubectlJson<KubeObject>(['get', 'clusterissuer', 'atmosphere'], opts());
    expect((issuer.status as { conditions: { reason: string }[] }).conditions[0].reason).toBe('ACMEAccountRegistered');
  });
});

describe('kubeAvailability', () => {
  it('says kubectl is missing when the binary is absent', async () => {
    const env = { ...process.env, CLOUDGATE_KUBECTL: '/nonexistent/kubectl' };
    await expect(kubectl(['version'], { env })).rejects.toBeInstanceOf(KubectlMissing);
    const result = await kubeAvailability({ env });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('kubectl was not found') });
  });

  it.skipIf(!hasKubectl)(`says there is no current context with an empty kubeconfig${needsKubectl}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-kube-'));
    const kubeconfig = join(dir, 'config');
    writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n');
    chmodSync(kubeconfig, 0o600);
    const result = await kubeAvailability({ env: { ...process.env, KUBECONFIG: kubeconfig } });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('no current context') });
  });

  it.skipIf(!hasKubectl)(
    `says the cluster is unreachable when the server is gone, and ok when it answers${needsKubectl}`,
    async () => {
      const api = await startKubeApi(new KubeState(), { https: false, context: 'lab' });
      const env = { ...process.env, ...api.env };
      expect(await kubeAvailability({ env })).toEqual({ ok: true, context: 'lab' });
      expect(await kubeAvailability({ env, context: 'other' })).toEqual({
        ok: false,
        reason: expect.stringContaining('no context "other"'),
      });
      await api.stop();
      const down = await kubeAvailability({ env, timeoutMs: 3000 });
      expect(down.ok).toBe(false);
      expect(!down.ok && down.reason).toContain('unreachable');
    },
  );

  it.skipIf(!hasKubectl)(
    `gives up on an API server that accepts connections and never answers${needsKubectl}`,
    async () => {
      const sockets: import('node:net').Socket[] = [];
      const server = createServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as import('node:net').AddressInfo;
      const dir = mkdtempSync(join(tmpdir(), 'cg-kube-'));
      const kubeconfig = join(dir, 'config');
      writeFileSync(
        kubeconfig,
        `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]\n` +
          'users: [{name: u, user: {}}]\ncontexts: [{name: hang, context: {cluster: c, user: u}}]\ncurrent-context: hang\n',
      );
      try {
        const result = await kubeAvailability({
          env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') },
          timeoutMs: 2000,
        });
        expect(result.ok).toBe(false);
        expect(!result.ok && result.reason).toMatch(/unreachable|did not (answer|finish)/);
      } finally {
        sockets.forEach((s) => s.destroy());
        server.close();
      }
    },
  );
});

describe.skipIf(!hasKubectl)(`kubectlJson${needsKubectl}`, () => {
  it('throws a KubectlError carrying the stderr of a failed command', async () => {
    const api = await startKubeApi(new KubeState().add(namespace('x')), { https: false });
    try {
      const error = await kubectlJson(['get', 'secret', 'missing', '-n', 'x'], {
        env: { ...process.env, ...api.env },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KubectlError);
      expect((error as KubectlError).message).toContain('"missing" not found');
      expect((error as KubectlError).result.exitCode).not.toBe(0);
    } finally {
      await api.stop();
    }
  });
});
