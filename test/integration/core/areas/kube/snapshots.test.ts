/** The TLS secrets the kube checks share: parsed once per run's reads and set of namespaces, kept by the reads, not by the module. */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tlsSecretsIn } from '../../../../../src/core/areas/kube/snapshots.js';
import { clusterReads } from '../../../../../src/core/kube/reads.js';

/** A kubectl that answers every call with the same list of TLS secrets (no tls.crt: only their names matter here), counting the calls. */
function secretsKubectl(): { env: NodeJS.ProcessEnv; calls: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'cg-kube-secrets-'));
  const secret = (namespace: string, name: string) => ({
    metadata: { namespace, name },
    type: 'kubernetes.io/tls',
    data: {},
  });
  writeFileSync(
    join(dir, 'list.json'),
    JSON.stringify({ items: [secret('openstack', 'a'), secret('auth-system', 'b')] }),
  );
  const script = join(dir, 'kubectl');
  writeFileSync(script, `#!/bin/sh\necho call >> '${dir}/calls'\ncat '${dir}/list.json'\n`);
  chmodSync(script, 0o755);
  return {
    env: { CLOUDGATE_KUBECTL: script, KUBECONFIG: join(dir, 'none') },
    calls: () => readFileSync(join(dir, 'calls'), 'utf8').split('\n').filter(Boolean).length,
  };
}

describe('tlsSecretsIn', () => {
  it('parses once per set of reads and namespaces: the same answer for the same namespaces, its own for others, one kubectl list for all', async () => {
    const kubectl = secretsKubectl();
    const reads = clusterReads({ env: kubectl.env, timeoutMs: 10_000 });
    const first = await tlsSecretsIn(reads, ['openstack']);
    expect(await tlsSecretsIn(reads, ['openstack'])).toBe(first);
    expect([...first.keys()]).toEqual(['openstack/a']);
    // Another scope is its own answer, not the first one's.
    expect([...(await tlsSecretsIn(reads, ['openstack', 'auth-system'])).keys()]).toEqual([
      'openstack/a',
      'auth-system/b',
    ]);
    expect(kubectl.calls()).toBe(1);
  });

  it('gives each run (each set of reads) its own parse', async () => {
    const kubectl = secretsKubectl();
    const one = await tlsSecretsIn(clusterReads({ env: kubectl.env, timeoutMs: 10_000 }), ['openstack']);
    const two = await tlsSecretsIn(clusterReads({ env: kubectl.env, timeoutMs: 10_000 }), ['openstack']);
    expect(two).not.toBe(one);
    expect(kubectl.calls()).toBe(2);
  });
});
