/**
 * `regenerate --wait`: after the stale secrets are deleted, follow their Certificates until
 * cert-manager has issued each again (the secret exists again and the Certificate is Ready), or the
 * deadline passes; then say which are still not ready and why.
 */
import { kubectl, kubectlGet, type KubectlOptions } from '../kube/kubectl.js';
import { conditionOf } from '../kube/platform.js';
import { memberOf } from '../records.js';
import type { StaleSecret } from './regenerate.js';

export interface WaitOutcome {
  ready: string[];
  notReady: { name: string; why: string }[];
}

export async function waitForReissue(
  kube: KubectlOptions,
  deleted: StaleSecret[],
  deadlineMs: number,
  pollMs = 2000,
): Promise<WaitOutcome> {
  const end = Date.now() + deadlineMs;
  let last: WaitOutcome;
  for (;;) {
    last = await pollOnce(kube, deleted);
    if (last.notReady.length === 0 || Date.now() + pollMs > end) return last;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

async function pollOnce(kube: KubectlOptions, deleted: StaleSecret[]): Promise<WaitOutcome> {
  const outcome: WaitOutcome = { ready: [], notReady: [] };
  const byNamespace = new Map<string, unknown[]>();
  for (const ns of new Set(deleted.map((s) => s.namespace))) {
    const got = await kubectlGet(['get', 'certificates.cert-manager.io', `--namespace=${ns}`], kube);
    const items = got.ok ? memberOf(got.value, 'items') : undefined;
    byNamespace.set(ns, Array.isArray(items) ? items : []);
  }
  for (const secret of deleted) {
    const certificate = byNamespace
      .get(secret.namespace)!
      .find(
        (c) =>
          memberOf(memberOf(c, 'metadata'), 'name') === secret.certificate ||
          memberOf(memberOf(c, 'spec'), 'secretName') === secret.name,
      );
    const ready = conditionOf(certificate, 'Ready');
    const exists = await kubectl(
      ['get', 'secret', `--namespace=${secret.namespace}`, '-o', 'name', '--', secret.name],
      kube,
    );
    if (!certificate)
      outcome.notReady.push({
        name: label(secret),
        why: 'no Certificate names this secret (the ingress may not carry the cert-manager annotation)',
      });
    else if (exists.exitCode !== 0)
      outcome.notReady.push({
        name: label(secret),
        why: `not issued yet${ready?.reason ? ` (${ready.reason}${ready.message ? `: ${ready.message}` : ''})` : ''}`,
      });
    else if (ready?.status !== 'True')
      outcome.notReady.push({
        name: label(secret),
        why: `${ready?.reason ?? 'no Ready condition'}${ready?.message ? `: ${ready.message}` : ''}`,
      });
    else outcome.ready.push(label(secret));
  }
  return outcome;
}

const label = (s: StaleSecret) => `${s.namespace}/${s.name}`;
