/** The shared reads at the context the cluster gate found answering: each list once per context, asked of that context. */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterReads } from '../../../../src/core/kube/reads.js';

/** A kubectl that records its arguments and answers every list with no items. */
function recordingKubectl(): { env: NodeJS.ProcessEnv; calls: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'cg-kube-reads-'));
  const log = join(dir, 'calls');
  writeFileSync(log, '');
  const script = join(dir, 'kubectl');
  writeFileSync(script, `#!/bin/sh\necho "$*" >> '${log}'\necho '{"items":[]}'\n`);
  chmodSync(script, 0o755);
  return {
    env: { CLOUDGATE_KUBECTL: script, KUBECONFIG: join(dir, 'none') },
    calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

describe('clusterReads().at(context)', () => {
  it('asks that context, once per list whichever check asks, and keeps what is derived per context', async () => {
    const kubectl = recordingKubectl();
    const reads = clusterReads({ env: kubectl.env, timeoutMs: 10_000 });
    const [a, b] = await Promise.all([reads.at('prod').list('ingresses'), reads.at('prod').list('ingresses')]);
    expect(a).toBe(b);
    expect(kubectl.calls()).toEqual([expect.stringContaining('--context=prod')]);
    await reads.at('staging').list('ingresses');
    expect(kubectl.calls()[1]).toContain('--context=staging');
    expect(reads.calls).toBe(2);

    let built = 0;
    const build = async () => ++built;
    expect(await reads.at('prod').derive('n', build)).toBe(1);
    expect(await reads.at('prod').derive('n', build)).toBe(1);
    expect(await reads.at('staging').derive('n', build)).toBe(2);
  });
});
