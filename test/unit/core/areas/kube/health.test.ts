/** kube.cert-manager judged on cert-manager's Deployments and the webhook's EndpointSlices (no cluster). */
import { describe, expect, it } from 'vitest';
import { certManagerHealthResult, controllerDown } from '../../../../../src/core/areas/kube/health.js';
import { certManagerWorkloads } from '../../../../helpers/cert-manager-objects.js';
import type { CmObject } from '../../../../../src/core/kube/objects.js';

const workloads = (options: Parameters<typeof certManagerWorkloads>[0] = {}) =>
  certManagerWorkloads(options).filter((o) => o.kind !== 'Namespace') as CmObject[];

describe('certManagerHealthResult', () => {
  it.each<[string, CmObject[], 'ok' | 'warn' | 'fail', RegExp]>([
    [
      'all three available, webhook answering',
      workloads(),
      'ok',
      /controller, webhook and cainjector are available \(v1.15.5\)/,
    ],
    [
      'the controller down',
      workloads({ down: ['controller'] }),
      'fail',
      /cert-manager is not available \(0 of 1 replicas ready.*no Certificate is issued or renewed/,
    ],
    [
      'the webhook down',
      workloads({ down: ['webhook'] }),
      'fail',
      /cert-manager-webhook is not available.*refuses to create/,
    ],
    ['the webhook without endpoints', workloads({ webhookEndpoints: false }), 'fail', /no ready endpoint/],
    [
      'the cainjector missing',
      workloads().filter((o) => o.metadata?.name !== 'cert-manager-cainjector'),
      'fail',
      /no cainjector Deployment in cert-manager/,
    ],
    [
      'a rollout not yet observed',
      workloads({ staleRollout: ['controller'] }),
      'warn',
      /generation 2 while the Deployment is at 3/,
    ],
    ['nothing installed', [], 'fail', /no controller Deployment/],
  ])('%s', (_, objects, status, message) => {
    const result = certManagerHealthResult(objects);
    expect(result.status).toBe(status);
    expect(result.message).toMatch(message);
  });

  it('names components that run different versions', () => {
    const mixed = workloads().map((o) =>
      o.metadata?.name === 'cert-manager-webhook'
        ? {
            ...o,
            metadata: { ...o.metadata, labels: { ...o.metadata!.labels, 'app.kubernetes.io/version': 'v1.14.0' } },
          }
        : o,
    );
    const down = mixed.map((o) =>
      o.metadata?.name === 'cert-manager' ? { ...o, status: { ...o.status, readyReplicas: 0 } } : o,
    );
    expect(certManagerHealthResult(down).advice).toMatch(/different versions \(v1.15.5, v1.14.0\)/);
  });

  it.each<[string, CmObject[], string, string]>([
    [
      'controller down',
      workloads({ down: ['controller'] }),
      'Deployment cert-manager/cert-manager',
      'MinimumReplicasUnavailable',
    ],
    [
      'webhook without endpoints',
      workloads({ webhookEndpoints: false }),
      'Deployment cert-manager/cert-manager-webhook',
      'NoReadyEndpoint',
    ],
    [
      'cainjector missing',
      workloads().filter((o) => o.metadata?.name !== 'cert-manager-cainjector'),
      'Deployment cert-manager/cert-manager-cainjector',
      'NotFound',
    ],
  ])('names the stuck component: %s', (_, objects, object, reason) => {
    expect(certManagerHealthResult(objects).stuck).toEqual({ step: 'controller', object, reason });
  });

  it('tells the other checks when the controller is down', () => {
    expect([
      controllerDown(workloads()),
      controllerDown(workloads({ down: ['controller'] })),
      controllerDown(workloads({ down: ['webhook'] })),
    ]).toEqual([false, true, false]);
  });
});
