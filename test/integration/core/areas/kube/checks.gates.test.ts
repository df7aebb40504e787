/**
 * The kube checks say when they can run through the doctor's gates, like every other group: the runner,
 * not the area, writes their `not-applicable`, `not-configured` and `no-cluster` skips, and asks kubectl once per run
 * whichever group's checks stand behind the cluster gate.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { provideChecks } from '../../../../../src/core/areas/kube/checks.js';
import { cluster } from '../../../../../src/core/doctor/gates.js';
import { runChecks } from '../../../../../src/core/doctor/runner.js';
import type { Check } from '../../../../../src/core/doctor/types.js';
import { doctorInput, writeTemp } from '../../../../helpers/doctor-run.js';

/** A kubectl that records its arguments and reaches no cluster (every call exits 1). */
function noClusterKubectl(): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'cg-kube-gates-'));
  const log = join(dir, 'calls');
  writeFileSync(log, '');
  const script = join(dir, 'kubectl');
  writeFileSync(script, `#!/bin/sh\necho "$*" >> '${log}'\necho 'error: no cluster here' >&2\nexit 1\n`);
  chmodSync(script, 0o755);
  return {
    env: { CLOUDGATE_KUBECTL: script, KUBECONFIG: join(dir, 'none') },
    calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

const ACME = 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n';

describe("the kube checks' gates", () => {
  it("name when each check can run: the cluster for what reads it, closed with the area's sentence for what the inventory does not call for, always for kube.context", async () => {
    const kubectl = noClusterKubectl();
    const checks = await provideChecks(
      doctorInput({ context: 'prod' }, { env: kubectl.env, inventory: writeTemp('certificates.yml', ACME) }),
    );
    const gates = Object.fromEntries(checks.map((c) => [c.id, c.gate]));
    expect(gates['kube.context']).toEqual({ kind: 'always' });
    for (const id of [
      'kube.cert-manager',
      'kube.issuer',
      'kube.issuer-drift',
      'kube.certificates',
      'kube.ingress-secrets',
    ]) {
      expect(gates[id], id).toMatchObject({ kind: 'cluster', lead: 'No cluster to ask' });
    }
    // kubernetes is not selected and there is no supplied wildcard: closed when listed, with the reason.
    for (const id of ['kube.crd-version', 'kube.service-account', 'kube.token-permission', 'kube.wildcard-secret']) {
      expect(gates[id], id).toMatchObject({ kind: 'closed', code: 'not-applicable' });
    }
    // The one rule of keyless route53, in the words the discovery group's checks use too.
    expect(gates['kube.crd-version']).toMatchObject({
      message:
        'Only needed for route53 auth kubernetes: the inventory selects acme, solver http01 and no --issuer-url was given.',
    });
    expect(gates['kube.wildcard-secret']).toMatchObject({
      text: expect.stringContaining('openstack_helm_ingress_secret_name'),
    });
    expect(kubectl.calls()).toEqual([]); // listing the checks asks no cluster
  });

  it('leave the skips to the runner: no check body runs without a cluster, and kubectl is asked once for the kube and another group alike', async () => {
    const kubectl = noClusterKubectl();
    const input = doctorInput({}, { env: kubectl.env, inventory: writeTemp('certificates.yml', ACME) });
    const ran: string[] = [];
    // The checks as listed, their bodies replaced by a record of being run: what is skipped, the gate decided.
    const kube = (await provideChecks(input)).map((c): Check =>
      c.run ? { ...c, run: async () => (ran.push(c.id), { status: 'ok', message: 'ran' }) } : c,
    );
    const other: Check = {
      id: 'other.cluster',
      group: 'other',
      title: 'another group behind the cluster gate',
      gate: cluster({ env: input.env }),
      run: async () => ({ status: 'ok', message: 'ran' }),
    };
    const report = await runChecks([...kube, other], { timeoutMs: 10_000, network: input.network });
    const byId = Object.fromEntries(report.checks.map((c) => [c.id, c]));

    expect(ran).toEqual([]);
    expect(byId['kube.issuer']).toMatchObject({ status: 'skip', reason: { code: 'no-cluster' } });
    expect(byId['kube.issuer']!.message).toMatch(/^No cluster to ask: kubectl has no current context/);
    expect(byId['kube.certificates']!.reason!.code).toBe('no-cluster');
    expect(byId['kube.crd-version']).toMatchObject({ status: 'skip', reason: { code: 'not-applicable' } });
    expect(byId['other.cluster']).toMatchObject({ status: 'skip', reason: { code: 'no-cluster' } });
    expect(byId['other.cluster']!.message).toMatch(/^Cluster not checked: /);
    expect(kubectl.calls()).toEqual([expect.stringContaining('config current-context')]);
  });
});
