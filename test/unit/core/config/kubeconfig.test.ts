import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubeContexts } from '../../../../src/core/config/kubeconfig.js';

const config = (current: string | undefined, ...names: string[]) =>
  `apiVersion: v1\nkind: Config\n${current ? `current-context: ${current}\n` : ''}contexts:\n${names.map((n) => `- name: ${n}\n  context: {cluster: c, user: u}\n`).join('')}`;

describe('the kubeconfig contexts, as kubectl merges KUBECONFIG', () => {
  it("lists every file's contexts; the first file that sets current-context decides it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-kube-'));
    writeFileSync(join(dir, 'a'), config(undefined, 'dev'));
    writeFileSync(join(dir, 'b'), config('prod', 'prod', 'dev'));
    writeFileSync(join(dir, 'c'), config('other', 'other'));
    const env = { KUBECONFIG: [join(dir, 'a'), join(dir, 'missing'), join(dir, 'b'), join(dir, 'c')].join(':') };
    expect(await kubeContexts(env)).toEqual({
      names: ['dev', 'prod', 'other'],
      current: { name: 'prod', file: join(dir, 'b') },
    });
  });

  it('reads ~/.kube/config without KUBECONFIG; a broken or missing file counts as empty', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cg-kube-home-'));
    expect(await kubeContexts({ HOME: home })).toEqual({ names: [] });
    const dir = mkdtempSync(join(tmpdir(), 'cg-kube-'));
    writeFileSync(join(dir, 'broken'), 'contexts: [\n');
    expect(await kubeContexts({ KUBECONFIG: join(dir, 'broken') })).toEqual({ names: [] });
  });
});
