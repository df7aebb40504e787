/**
 * The manifests of deploy/, applied (server-side) to the Kubernetes API test server, and the
 * exporter's ServiceAccount asked with `kubectl auth can-i` for each call the kube checks make,
 * and for neighbours of those calls that it must not be allowed.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  certManagerCrds,
  KubeState,
  namespace,
  startKubeApi,
  type KubeApi,
  type KubeObject,
} from '../servers/kube-api.js';

const run = promisify(execFile);
const DEPLOY = new URL('../../deploy/', import.meta.url);
const SA = 'system:serviceaccount:cloudgate:cloudgate';

function manifests(): KubeObject[] {
  const files = (
    parseAllDocuments(readFileSync(new URL('kustomization.yaml', DEPLOY), 'utf8'))[0]!.toJS() as { resources: string[] }
  ).resources;
  return files.flatMap((f) =>
    parseAllDocuments(readFileSync(new URL(f, DEPLOY), 'utf8')).map((d) => d.toJS() as KubeObject),
  );
}

/** The prometheus-operator CRDs a cluster with the operator has (only what discovery needs). */
function operatorCrd(kind: string, plural: string): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.monitoring.coreos.com` },
    spec: {
      group: 'monitoring.coreos.com',
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [{ name: 'v1', served: true, storage: true }],
    },
  };
}

async function kubectl(api: KubeApi, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('kubectl', args, { env: { ...process.env, ...api.env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function canI(api: KubeApi, args: string[]): Promise<string> {
  return (await kubectl(api, ['auth', 'can-i', ...args, `--as=${SA}`])).stdout.trim();
}

describe('deploy/ manifests', () => {
  let api: KubeApi;
  beforeAll(async () => {
    const state = new KubeState().add(
      namespace('openstack'),
      namespace('cert-manager'),
      ...certManagerCrds(),
      operatorCrd('ServiceMonitor', 'servicemonitors'),
      operatorCrd('PrometheusRule', 'prometheusrules'),
    );
    api = await startKubeApi(state);
  });
  afterAll(() => api?.stop());

  it('apply server-side (kubectl apply -k deploy), every object stored', async () => {
    const result = await kubectl(api, [
      'apply',
      '--server-side',
      '--field-manager=cloudgate-test',
      '--validate=false',
      '-k',
      new URL('.', DEPLOY).pathname,
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const o of manifests()) {
      expect(
        api.state.get(o.kind, o.metadata.name, o.metadata.namespace),
        `${o.kind} ${o.metadata.name}`,
      ).toBeDefined();
    }
    expect(api.state.list('PrometheusRule')).toHaveLength(1);
  });

  it('the ServiceAccount may make exactly the calls the kube checks make', async () => {
    const allowed = [
      ['get', 'customresourcedefinitions.apiextensions.k8s.io/clusterissuers.cert-manager.io'],
      ['get', 'clusterissuers.cert-manager.io/atmosphere'],
      ['list', 'certificates.cert-manager.io', '-n', 'openstack'],
      ['list', 'ingresses.networking.k8s.io', '-n', 'openstack'],
      ['get', 'secrets/wildcard-tls', '-n', 'openstack'],
      ['get', 'serviceaccounts/cert-manager-route53', '-n', 'cert-manager'],
      ['create', 'serviceaccounts/cert-manager-route53', '--subresource=token', '-n', 'cert-manager'],
      ['list', 'ingresses.networking.k8s.io', '-n', 'auth-system'],
      ['list', 'ingresses.networking.k8s.io', '-n', 'monitoring'],
      ['get', 'secrets/cert-manager-issuer-tsig-secret-key', '-n', 'cert-manager'],
      ['list', 'pods', '-n', 'kube-system'],
      ['get', 'configmaps/kubeadm-config', '-n', 'kube-system'],
    ];
    for (const args of allowed) expect(`${args.join(' ')}: ${await canI(api, args)}`).toBe(`${args.join(' ')}: yes`);
  });

  it('and nothing more: no other secret, no writes, no token for another account, no impersonation', async () => {
    const denied = [
      ['list', 'secrets', '-n', 'openstack'],
      ['get', 'secrets/keystone-tls', '-n', 'openstack'],
      ['get', 'secrets/wildcard-tls', '-n', 'cert-manager'],
      ['get', 'secrets', '-n', 'cloudgate'],
      ['create', 'serviceaccounts/cert-manager', '--subresource=token', '-n', 'cert-manager'],
      ['create', 'serviceaccounts/cert-manager-route53', '--subresource=token', '-n', 'openstack'],
      ['delete', 'secrets/wildcard-tls', '-n', 'openstack'],
      ['patch', 'certificates.cert-manager.io', '-n', 'openstack'],
      ['delete', 'certificates.cert-manager.io', '-n', 'openstack'],
      ['get', 'clusterissuers.cert-manager.io/other'],
      ['list', 'clusterissuers.cert-manager.io'],
      ['get', 'customresourcedefinitions.apiextensions.k8s.io/certificates.cert-manager.io'],
      ['create', 'deployments.apps', '-n', 'cloudgate'],
      ['impersonate', 'serviceaccounts/cert-manager', '-n', 'cert-manager'],
      ['list', 'certificates.cert-manager.io', '-n', 'default'],
      ['list', 'secrets', '-n', 'cert-manager'],
      ['get', 'secrets/cert-manager-webhook-ca', '-n', 'cert-manager'],
      ['get', 'configmaps/coredns', '-n', 'kube-system'],
      ['get', 'secrets', '-n', 'kube-system'],
      ['list', 'ingresses.networking.k8s.io', '-n', 'default'],
    ];
    for (const args of denied) expect(`${args.join(' ')}: ${await canI(api, args)}`).toBe(`${args.join(' ')}: no`);
  });

  it('the Deployment runs non-root on a read-only root filesystem, with requests and limits and the Secret referenced', () => {
    const all = manifests();
    const deployment = all.find((o) => o.kind === 'Deployment') as KubeObject & { spec: any };
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    expect(pod.serviceAccountName).toBe('cloudgate');
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(Object.keys(container.resources.requests).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(container.resources.limits).sort()).toEqual(['cpu', 'memory']);
    expect(container.args[0]).toBe('serve');
    expect(container.envFrom).toEqual([{ secretRef: { name: 'cloudgate-signin' } }]);
    // The Secret is referenced, never filled in the applied manifests.
    expect(all.some((o) => o.kind === 'Secret')).toBe(false);
    const service = all.find((o) => o.kind === 'Service') as KubeObject & { spec: any };
    const monitor = all.find((o) => o.kind === 'ServiceMonitor') as KubeObject & { spec: any };
    expect(service.spec.ports[0].name).toBe(monitor.spec.endpoints[0].port);
    expect(monitor.spec.selector.matchLabels).toEqual(service.metadata.labels);
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
  });
});
