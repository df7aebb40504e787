/**
 * `kube.cert-manager`: cert-manager itself runs. Its controller (which issues and renews), webhook
 * (without which the API server refuses every cert-manager object) and cainjector (which gives the
 * webhook's configuration its CA) are Deployments in the cert-manager namespace: each must be
 * Available with its latest generation rolled out, and the webhook's Service must have a ready
 * endpoint to answer the API server. Pure: the objects are read elsewhere (checks.ts).
 */
import type { HealthFacts } from './facts.js';
import type { CheckResult, Status } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import { readCondition, type CmObject } from '../../kube/objects.js';
import { isOneOf, memberOf, numberOf, textOf } from '../../records.js';
import { CERT_MANAGER_NAMESPACE } from '../../kube/platform.js';
import { HEALTH } from './messages/cluster.js';

export type Component = 'controller' | 'webhook' | 'cainjector';
const COMPONENTS: Component[] = ['controller', 'webhook', 'cainjector'];
const DEFAULT_NAMES: Record<Component, string> = {
  controller: 'cert-manager',
  webhook: 'cert-manager-webhook',
  cainjector: 'cert-manager-cainjector',
};
const ROLE: Record<Component, string> = {
  controller: 'no Certificate is issued or renewed',
  webhook: 'the API server refuses to create or change any cert-manager object',
  cainjector: "the webhook's CA is not injected, so the API server cannot call the webhook",
};

export interface ComponentState {
  component: Component;
  name?: string;
  status: Status;
  version?: string;
  problem?: string;
  /** The Deployment's own reason (its Available condition's), or what is missing. */
  reason?: string;
}

function componentOf(d: CmObject): Component | undefined {
  const label = d.metadata?.labels?.['app.kubernetes.io/component'];
  if (isOneOf(COMPONENTS, label)) return label;
  return COMPONENTS.find((c) => DEFAULT_NAMES[c] === d.metadata?.name);
}

function versionOf(d: CmObject): string | undefined {
  const label = d.metadata?.labels?.['app.kubernetes.io/version'];
  if (label) return label;
  const containers = memberOf(memberOf(d.spec?.template, 'spec'), 'containers');
  const image = (Array.isArray(containers) ? textOf(memberOf(containers[0], 'image')) : undefined) ?? '';
  return /:(v?\d[^@]*)/.exec(image)?.[1];
}

export function componentState(component: Component, d: CmObject | undefined): ComponentState {
  if (!d) return { component, status: 'fail', problem: HEALTH.noDeployment(component) };
  const status = {
    observedGeneration: numberOf(d.status?.observedGeneration),
    readyReplicas: numberOf(d.status?.readyReplicas),
    replicas: numberOf(d.status?.replicas),
  };
  const base = { component, name: d.metadata?.name, version: versionOf(d) };
  const available = readCondition(d, 'Available');
  const replicas = numberOf(d.spec?.replicas);
  if (replicas === 0)
    return { ...base, status: 'fail', reason: 'ScaledToZero', problem: HEALTH.scaledToZero(d.metadata?.name) };
  if (available?.status !== 'True' || !status.readyReplicas) {
    const why = available?.message ? `: ${escapeLine(available.message)}` : '';
    return {
      ...base,
      status: 'fail',
      reason: available?.reason ?? 'Unavailable',
      problem: HEALTH.notAvailable(
        d.metadata?.name,
        status.readyReplicas ?? 0,
        replicas ?? status.replicas ?? '?',
        why,
      ),
    };
  }
  const generation = d.metadata?.generation;
  if (
    typeof generation === 'number' &&
    typeof status.observedGeneration === 'number' &&
    status.observedGeneration < generation
  ) {
    return {
      ...base,
      status: 'warn',
      reason: 'RolloutPending',
      problem: HEALTH.rolloutPending(d.metadata?.name, status.observedGeneration, generation),
    };
  }
  return { ...base, status: 'ok' };
}

/** Whether the webhook's Service has a ready endpoint (EndpointSlices labelled with the service's name). */
export function webhookAnswers(slices: CmObject[], service: string): boolean {
  return slices
    .filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === service)
    .some(
      (s) =>
        Array.isArray(s.endpoints) && s.endpoints.some((e) => memberOf(memberOf(e, 'conditions'), 'ready') !== false),
    );
}

export function certManagerHealthResult(workloads: CmObject[]): CheckResult<HealthFacts> {
  const deployments = workloads.filter((o) => o.kind === 'Deployment');
  const slices = workloads.filter((o) => o.kind === 'EndpointSlice');
  const states = COMPONENTS.map((c) =>
    componentState(
      c,
      deployments.find((d) => componentOf(d) === c),
    ),
  );
  const webhook = states.find((s) => s.component === 'webhook')!;
  if (webhook.status !== 'fail' && !webhookAnswers(slices, webhook.name ?? DEFAULT_NAMES.webhook)) {
    Object.assign(webhook, {
      status: 'fail',
      reason: 'NoReadyEndpoint',
      problem: HEALTH.noReadyEndpoint(webhook.name ?? DEFAULT_NAMES.webhook),
    });
  }
  const versions = [...new Set(states.map((s) => s.version).filter(Boolean))];
  const facts = { components: states, ...(versions.length ? { versions } : {}) };
  const bad = states.filter((s) => s.status !== 'ok');
  if (bad.length === 0) {
    return {
      status: 'ok',
      message: HEALTH.healthy(versions),
      facts,
      subject: { kind: 'Namespace', name: CERT_MANAGER_NAMESPACE },
    };
  }
  const first = bad.find((s) => s.status === 'fail') ?? bad[0];
  const stuck = {
    step: 'controller' as const,
    object: `Deployment ${CERT_MANAGER_NAMESPACE}/${first.name ?? DEFAULT_NAMES[first.component]}`,
    reason: first.reason ?? 'NotFound',
  };
  const versionSkew =
    versions.length > 1
      ? ` Its components run different versions (${versions.join(', ')}): upgrade them together.`
      : '';
  return {
    status: bad.some((s) => s.status === 'fail') ? 'fail' : 'warn',
    message: HEALTH.unhealthy(bad.map((s) => `${s.problem}, so ${ROLE[s.component]}`).join('; ')),
    advice: HEALTH.lookAtDeployments(versionSkew),
    facts,
    subject: { kind: 'Namespace', name: CERT_MANAGER_NAMESPACE },
    stuck,
  };
}

/** The controller is down: state that depends on it being stale is kube.cert-manager's finding. */
export function controllerDown(workloads: CmObject[]): boolean {
  const d = workloads.filter((o) => o.kind === 'Deployment').find((x) => componentOf(x) === 'controller');
  return componentState('controller', d).status === 'fail';
}
