import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import {
  always,
  cluster,
  configured,
  firstClosed,
  notApplicable,
  notConfigured,
} from '../../../../src/core/doctor/gates.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The modules reached from `entry` by static imports only, and those reached at all, as the build bundles them. */
async function loadGraph(entry: string): Promise<{ statically: Set<string>; atAll: Set<string> }> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    outdir: 'dist-test-unused',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs: Metafile['outputs'] = result.metafile.outputs;
  const walk = (kinds: string[]) => {
    const seen = new Set<string>();
    const start = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === entry)!;
    const queue = [start];
    while (queue.length) {
      const path = queue.pop()!;
      if (seen.has(path)) continue;
      seen.add(path);
      for (const i of outputs[path]?.imports ?? []) if (kinds.includes(i.kind)) queue.push(i.path);
      for (const input of Object.keys(outputs[path]?.inputs ?? {})) seen.add(input);
    }
    return seen;
  };
  return { statically: walk(['import-statement']), atAll: walk(['import-statement', 'dynamic-import']) };
}

describe('gates', () => {
  it('notConfigured(sentence) and notApplicable(sentence) close a gate when listed, the sentence its message and what to do', () => {
    expect(notConfigured('No issuer URL given.')).toEqual({
      kind: 'closed',
      code: 'not-configured',
      message: 'No issuer URL given.',
      text: 'No issuer URL given.',
    });
    expect(notApplicable('The inventory does not select kubernetes.')).toMatchObject({
      kind: 'closed',
      code: 'not-applicable',
    });
    expect(configured({ issuer_url: 'https://x' })).toBe(always);
    expect(configured({ issuer_url: '' })).toMatchObject({
      kind: 'closed',
      code: 'not-configured',
      message: 'Not configured: issuer_url is not set.',
      text: 'Set issuer_url.',
    });
    expect(firstClosed(always, notApplicable('no'), cluster({}))).toMatchObject({ code: 'not-applicable' });
    expect(firstClosed(always, cluster({}))).toMatchObject({ kind: 'cluster' });
  });

  it('cluster() carries the lead of its skip message only when given one', () => {
    expect(cluster({}, { lead: 'No cluster to ask' })).toMatchObject({ kind: 'cluster', lead: 'No cluster to ask' });
    expect(cluster({})).not.toHaveProperty('lead');
  });

  it('loads kubectl (and node:child_process) only when a cluster gate is asked, not with the doctor', async () => {
    const graph = await loadGraph('src/core/doctor/gates.ts');
    expect(graph.atAll).toContain('node:child_process');
    expect(graph.atAll).toContain('src/core/kube/kubectl.ts');
    expect(graph.statically).not.toContain('node:child_process');
    expect(graph.statically).not.toContain('src/core/kube/kubectl.ts');
  });
});
