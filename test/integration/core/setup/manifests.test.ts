import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { applyManifest } from '../../../../src/core/setup/apply-manifest.js';
import { UsageError } from '../../../../src/core/errors.js';
import { kubectl } from '../../../../src/core/kube/kubectl.js';
import { tlsSecretManifest } from '../../../../src/core/setup/manifests.js';
import { redact } from '../../../../src/core/secrets.js';
import { KubeState, namespace, startKubeApi, type KubeApi } from '../../../servers/kube-api.js';
import { chain, tempDir, type Chain } from '../../../helpers/pki.js';
import { hasKubectl, needsKubectl } from '../../../helpers/has-kubectl.js';

let c: Chain;
let chainPem: string;
beforeAll(async () => {
  c = await chain('p256');
  chainPem = c.leaf.cert + c.intermediate.cert + c.root.cert;
});

describe('tlsSecretManifest', () => {
  it('writes one kubernetes.io/tls Secret per namespace with the chain and key base64-encoded', () => {
    const text = tlsSecretManifest({
      name: 'wildcard-tls',
      namespaces: ['openstack', 'auth-system', 'monitoring', 'openstack'],
      chainPem,
      keyPem: c.leaf.key,
    });
    const all = parseAllDocuments(text).map((d) => d.toJS() as Record<string, any>);
    // One document (a List): a second document would make Ansible echo its lines when it reads the folder.
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ apiVersion: 'v1', kind: 'List' });
    const docs = all[0].items as Record<string, any>[];
    expect(docs.map((d) => d.metadata.namespace)).toEqual(['openstack', 'auth-system', 'monitoring']);
    for (const d of docs) {
      expect(d).toMatchObject({
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/tls',
        metadata: { name: 'wildcard-tls' },
      });
      expect(Buffer.from(d.data['tls.crt'], 'base64').toString()).toBe(chainPem);
      expect(Buffer.from(d.data['tls.key'], 'base64').toString()).toBe(c.leaf.key);
    }
    expect(redact(text)).not.toContain(Buffer.from(c.leaf.key).toString('base64'));
  });

  it('refuses invalid names and namespaces with a usage error', () => {
    const make = (name: string, namespaces: string[]) => () =>
      tlsSecretManifest({ name, namespaces, chainPem, keyPem: c.leaf.key });
    expect(make('Wildcard_TLS', ['openstack'])).toThrow(UsageError);
    expect(make('wildcard', ['Open Stack'])).toThrow(/Not a valid namespace name: "Open Stack"/);
    expect(make('wildcard', [])).toThrow(/No namespace/);
  });
});

describe.skipIf(!hasKubectl)(`the manifest against kubectl and an API server${needsKubectl}`, () => {
  let api: KubeApi;
  let env: NodeJS.ProcessEnv;
  let file: string;
  beforeAll(async () => {
    api = await startKubeApi(new KubeState().add(namespace('openstack'), namespace('monitoring')));
    env = { ...process.env, ...api.env };
    file = join(tempDir(), 'wildcard.secret.yaml');
    writeFileSync(
      file,
      tlsSecretManifest({
        name: 'wildcard-tls',
        namespaces: ['openstack', 'monitoring'],
        chainPem,
        keyPem: c.leaf.key,
      }),
      { mode: 0o600 },
    );
  });
  afterAll(() => api?.stop());

  it('is accepted by kubectl create --dry-run=client', async () => {
    const result = await kubectl(['create', '--dry-run=client', '--validate=false', '-f', file, '-o', 'json'], {
      env,
      timeoutMs: 30_000,
    });
    expect(result.stderr).toBe('');
    // One JSON object per document, printed one after the other.
    const items = JSON.parse(`[${result.stdout.trim().replace(/\n}\n{/g, '\n},\n{')}]`) as {
      kind: string;
      type: string;
      metadata: { namespace: string };
    }[];
    expect(items.map((i) => [i.kind, i.type, i.metadata.namespace])).toEqual([
      ['Secret', 'kubernetes.io/tls', 'openstack'],
      ['Secret', 'kubernetes.io/tls', 'monitoring'],
    ]);
  });

  it('is applied by applyManifest, which reports what kubectl did', async () => {
    const result = await applyManifest(file, { env, timeoutMs: 30_000 }, ['openstack', 'monitoring']);
    expect(result.status).toBe('applied');
    expect(result.output).toContain('secret/wildcard-tls created');
    // One Secret per namespace, each named with its namespace (kubectl's own lines do not say).
    expect(result.message).toContain(
      'secret/wildcard-tls created in openstack, secret/wildcard-tls created in monitoring',
    );
    const stored = api.state.get('Secret', 'wildcard-tls', 'monitoring')?.data as Record<string, string>;
    expect(Buffer.from(stored['tls.crt']!, 'base64').toString()).toBe(chainPem);
  });

  it('reports a failed apply with the manual command, and a missing kubectl', async () => {
    const failed = await applyManifest(file, { env, context: 'no-such-context', timeoutMs: 30_000 });
    expect(failed.status).toBe('failed');
    expect(failed.advice).toContain(`kubectl apply -f ${file} --context no-such-context`);
    const missing = await applyManifest(file, { env: { ...env, CLOUDGATE_KUBECTL: '/nonexistent/kubectl' } });
    expect(missing).toMatchObject({
      status: 'kubectl-missing',
      message: expect.stringContaining(`${file} was written but not applied`),
    });
  });
});
