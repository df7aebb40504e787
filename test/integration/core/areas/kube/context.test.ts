import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { provideChecks } from '../../../../../src/core/areas/kube/checks.js';
import { runCli } from '../../../../helpers/cli.js';
import { doctorInput, run } from '../../../../helpers/doctor-run.js';
import { hasKubectl, needsKubectl } from '../../../../helpers/has-kubectl.js';

/** A kubeconfig with two contexts; kubectl lists them without asking any cluster. */
function kubeconfig(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-kubeconfig-'));
  const file = join(dir, 'config');
  const context = (name: string) => `- name: ${name}\n  context: { cluster: c1, user: u1 }\n`;
  writeFileSync(
    file,
    'apiVersion: v1\nkind: Config\nclusters:\n- name: c1\n  cluster: { server: "https://127.0.0.1:1" }\nusers:\n- name: u1\n  user: { token: t }\n' +
      `contexts:\n${context('prod')}${context('staging')}current-context: prod\n`,
    { mode: 0o600 },
  );
  return file;
}

describe.skipIf(!hasKubectl)(`kube.context${needsKubectl}`, () => {
  it('fails a context that does not exist, naming the ones that do', async () => {
    const r = await run(provideChecks, doctorInput({ context: 'nope' }, { env: { KUBECONFIG: kubeconfig() } }));
    expect(r['kube.context']).toMatchObject({
      status: 'fail',
      facts: { context: 'nope', contexts: ['prod', 'staging'] },
    });
    expect(r['kube.context']!.message).toContain('"nope"');
    expect(r['kube.context']!.advice).toContain('--context');
  });

  it('passes a context that exists, also when named in the kube: section of --config (or the older discovery: one)', async () => {
    const env = { KUBECONFIG: kubeconfig() };
    expect((await run(provideChecks, doctorInput({ context: 'staging' }, { env })))['kube.context']!.status).toBe('ok');
    expect(
      (await run(provideChecks, doctorInput({}, { env, config: { kube: { context: 'prod' } } })))['kube.context']!
        .status,
    ).toBe('ok');
    expect(
      (await run(provideChecks, doctorInput({}, { env, config: { discovery: { context: 'prod' } } })))['kube.context']!
        .status,
    ).toBe('ok');
  });

  it('is absent without a --context: the current context is used', async () => {
    expect(
      (await run(provideChecks, doctorInput({}, { env: { KUBECONFIG: kubeconfig() } })))['kube.context'],
    ).toBeUndefined();
  });

  it('doctor --only kube --context nope exits 1 instead of skipping everything', async () => {
    const result = await runCli(['doctor', '--only', 'kube', '--context', 'nope', '--json'], {
      env: { KUBECONFIG: kubeconfig() },
    });
    expect(result.code).toBe(1);
    const check = JSON.parse(result.stdout).checks.find((c: { id: string }) => c.id === 'kube.context');
    expect(check).toMatchObject({ status: 'fail', details: { contexts: ['prod', 'staging'] } });
  });
});
