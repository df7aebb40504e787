import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cluster } from '../../../../src/core/doctor/gates.js';
import { runChecks } from '../../../../src/core/doctor/runner.js';
import type { Check } from '../../../../src/core/doctor/types.js';

/** A kubectl that counts its calls and has no current context. */
function countingKubectl(): { env: NodeJS.ProcessEnv; calls: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-gates-'));
  const count = join(dir, 'calls');
  writeFileSync(count, '');
  const script = join(dir, 'kubectl');
  writeFileSync(script, `#!/bin/sh\necho call >> '${count}'\nexit 1\n`);
  chmodSync(script, 0o755);
  return {
    env: { CLOUDGATE_KUBECTL: script, KUBECONFIG: join(dir, 'none') },
    calls: () => readFileSync(count, 'utf8').split('\n').filter(Boolean).length,
  };
}

describe('the cluster() gate', () => {
  it('asks kubectl once per run for all the checks behind it, and again in the next run (a serve round sees a cluster come back)', async () => {
    const kubectl = countingKubectl();
    const checks = (): Check[] =>
      ['k.one', 'k.two', 'k.three'].map((id) => ({
        id,
        group: 'kube',
        title: id,
        gate: cluster({ env: kubectl.env }),
        run: async () => ({ status: 'ok', message: 'ran' }),
      }));
    const first = await runChecks(checks());
    expect(first.checks.map((c) => c.reason?.code)).toEqual(['no-cluster', 'no-cluster', 'no-cluster']);
    expect(kubectl.calls()).toBe(1);
    await runChecks(checks());
    expect(kubectl.calls()).toBe(2);
  });
});
