/**
 * Deleting the stale certificate secrets against the Kubernetes API test server with the real kubectl:
 * one kubectl call per namespace however many secrets (it used to be one per secret), each deletion
 * counted as kubectl says it; a kubectl that never answers is reported as kubectl's own timeout, with
 * the step; and `cloudgate regenerate` stopped by SIGTERM in the middle of the deletion says what was
 * deleted and what was not (a kubectl wrapper that deletes two secrets, then hangs, marks the moment).
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteInBatches, deletionBatches, startProgress } from '../../../../src/core/setup/regenerate-delete.js';
import type { StaleSecret } from '../../../../src/core/setup/regenerate.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';
import { BIN, runCli } from '../../../helpers/cli.js';
import { waitUntil } from '../../../helpers/wait.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  startKubeApi,
  type KubeApi,
  type KubeObject,
} from '../../../servers/kube-api.js';

const tlsSecret = (ns: string, name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'kubernetes.io/tls',
  metadata: {
    name,
    namespace: ns,
    annotations: {
      'cert-manager.io/issuer-name': 'atmosphere',
      'cert-manager.io/issuer-kind': 'ClusterIssuer',
      'cert-manager.io/certificate-name': name,
    },
  },
  data: { 'tls.crt': Buffer.from('cert').toString('base64'), 'tls.key': Buffer.from('key').toString('base64') },
});
const certificate = (ns: string, name: string): KubeObject => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: { name, namespace: ns },
  spec: { secretName: name, issuerRef: { name: 'atmosphere', kind: 'ClusterIssuer' } },
});

let dir: string;
let api: KubeApi | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudgate-regen-batch-'));
});
afterEach(async () => {
  await api?.stop();
  api = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A kubectl that logs each call to `calls` and runs the real one; `hangOnDelete`: deletes the first two names, then never answers. */
function wrapper(hangOnDelete = false): { path: string; calls: string; marker: string } {
  const path = join(dir, 'kubectl');
  const calls = join(dir, 'calls');
  const marker = join(dir, 'deleting');
  writeFileSync(
    path,
    `#!/bin/bash
echo "$*" >> ${calls}
if ${hangOnDelete} && [[ " $* " == *" delete secret "* ]]; then
  names=(); seen=; opts=()
  for a in "$@"; do if [ -n "$seen" ]; then names+=("$a"); elif [ "$a" = "--" ]; then seen=1; else opts+=("$a"); fi; done
  kubectl "\${opts[@]}" -- "\${names[0]}" "\${names[1]}" || exit 1
  touch ${marker}
  exec sleep 600
fi
exec kubectl "$@"
`,
  );
  chmodSync(path, 0o755);
  return { path, calls, marker };
}

const stale = (ns: string, n: number): StaleSecret[] =>
  Array.from({ length: n }, (_, i) => ({
    namespace: ns,
    name: `cert-${String(i).padStart(4, '0')}-tls`,
    certificate: `cert-${i}`,
  }));

describe('deleting in batches', () => {
  it('60 secrets in two namespaces: one kubectl call per namespace, every one deleted and counted', async () => {
    const secrets = [...stale('openstack', 50), ...stale('monitoring', 10)];
    api = await startKubeApi(
      new KubeState().add(
        namespace('openstack'),
        namespace('monitoring'),
        ...secrets.map((s) => tlsSecret(s.namespace, s.name)),
      ),
    );
    const kubectl = wrapper();
    const progress = await deleteInBatches(
      { env: { ...process.env, ...api.env, CLOUDGATE_KUBECTL: kubectl.path } },
      startProgress(secrets),
    );
    expect(progress.deleted).toHaveLength(60);
    expect(progress.failed).toEqual([]);
    expect(
      readFileSync(kubectl.calls, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l.includes(' delete ')),
    ).toHaveLength(2);
    expect(api.state.deleted).toHaveLength(60);
  }, 120_000);

  it('splits a namespace only past what a command line holds', () => {
    const many = stale('openstack', 3);
    expect(deletionBatches(many, 1_000_000)).toHaveLength(1);
    expect(deletionBatches(many, 20).map((b) => b.secrets.length)).toEqual([1, 1, 1]);
  });

  it('a kubectl that never answers is its own timeout, named with the step; nothing counted as deleted', async () => {
    const hang = join(dir, 'hang');
    writeFileSync(hang, '#!/bin/sh\nexec sleep 600\n', { mode: 0o755 });
    const progress = await deleteInBatches(
      { env: { ...process.env, CLOUDGATE_KUBECTL: hang }, timeoutMs: 500 },
      startProgress(stale('openstack', 2)),
    );
    expect(progress.deleted).toEqual([]);
    expect(progress.failed).toHaveLength(2);
    expect(progress.errors).toEqual([
      expect.objectContaining({
        namespace: 'openstack',
        error: expect.stringMatching(
          /did not answer within 1 s \(deleting 2 secret\(s\) in openstack\); it was stopped/,
        ),
      }),
    ]);
  });
});

describe('cloudgate regenerate stopped while it deletes', () => {
  it('says which secrets were deleted, which may be, and which were not; exits 143', async () => {
    const deployed = renderPlatform({ cluster_issuer_type: 'self-signed' }).objects.at(-1)!.object;
    const secrets = [...stale('auth-system', 5), ...stale('openstack', 3)];
    api = await startKubeApi(
      new KubeState().add(
        ...certManagerCrds(),
        namespace('openstack'),
        namespace('auth-system'),
        namespace('monitoring'),
        deployed,
        ...secrets.flatMap((s) => [tlsSecret(s.namespace, s.name), certificate(s.namespace, s.name)]),
      ),
    );
    const kubectl = wrapper(true);
    const inventory = join(dir, 'certificates.yml');
    writeFileSync(inventory, 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n');
    writeFileSync(join(dir, 'issuer.yml'), 'cluster_issuer_type: self-signed\n');
    const child = spawn(
      process.execPath,
      [BIN, 'regenerate', '--inventory', inventory, '--answers', join(dir, 'issuer.yml'), '--yes'],
      {
        env: { ...process.env, ...api.env, CI: 'true', CLOUDGATE_KUBECTL: kubectl.path },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitUntil('kubectl to have deleted two secrets', () => existsSync(kubectl.marker), {
      timeoutMs: 60_000,
      lastSeen: () => stderr,
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).toContain('Stopped while deleting the certificate secrets.');
    expect(stderr).toMatch(/Deleted \(2\): auth-system\/cert-0000-tls, auth-system\/cert-0001-tls/);
    expect(stderr).toMatch(
      /Maybe deleted \(kubectl was deleting them when it was stopped; 3\): auth-system\/cert-0002-tls, auth-system\/cert-0003-tls, auth-system\/cert-0004-tls/,
    );
    expect(stderr).toMatch(
      /Not deleted \(3\): openstack\/cert-0000-tls, openstack\/cert-0001-tls, openstack\/cert-0002-tls/,
    );
    expect(api.state.deleted.map((s) => s.metadata.name).sort()).toEqual(['cert-0000-tls', 'cert-0001-tls']);
  }, 120_000);
});

describe('cloudgate regenerate when kubectl does not answer', () => {
  it("reports kubectl's timeout and the step (listing the secrets), not an error of its own; nothing written or deleted", async () => {
    const deployed = renderPlatform({ cluster_issuer_type: 'self-signed' }).objects.at(-1)!.object;
    api = await startKubeApi(
      new KubeState().add(
        ...certManagerCrds(),
        namespace('openstack'),
        namespace('auth-system'),
        namespace('monitoring'),
        deployed,
      ),
    );
    const path = join(dir, 'kubectl');
    writeFileSync(path, '#!/bin/bash\n[[ " $* " == *" get secrets "* ]] && exec sleep 600\nexec kubectl "$@"\n', {
      mode: 0o755,
    });
    const inventory = join(dir, 'certificates.yml');
    const before = 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n';
    writeFileSync(inventory, before);
    writeFileSync(join(dir, 'issuer.yml'), 'cluster_issuer_type: self-signed\n');
    const r = await runCli(['regenerate', '--inventory', inventory, '--answers', join(dir, 'issuer.yml'), '--yes'], {
      env: { ...api.env, CLOUDGATE_KUBECTL: path },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /kubectl get secrets --namespace=\S+ did not answer within 20 s \(listing the secrets in \S+\); it was stopped/,
    );
    expect(r.stderr).toContain('Nothing was written and no secret was deleted.');
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(readFileSync(inventory, 'utf8')).toBe(before);
  }, 60_000);
});
