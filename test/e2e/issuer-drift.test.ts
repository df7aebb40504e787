/**
 * `kube.issuer-drift` through the built binary against the Kubernetes API emulation and the real kubectl:
 * the live ClusterIssuer "atmosphere" and its credential Secret compared with what the inventory renders.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  startKubeApi,
  type KubeApi,
  type KubeObject,
} from '../servers/kube-api.js';
import { hasKubectl, needsKubectl } from '../helpers/has-kubectl.js';
import { renderPlatform } from '../../src/core/render/objects.js';

const CONTEXT = 'lab';
const TSIG_SECRET = 'c2VjcmV0LXRzaWcta2V5LXZhbHVl';
const dir = mkdtempSync(join(tmpdir(), 'cg-drift-'));
let n = 0;
function inventory(values: Record<string, string>): string {
  const path = join(dir, `inv-${++n}.yml`);
  writeFileSync(
    path,
    Object.entries(values)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join('\n') + '\n',
  );
  return path;
}

const RFC2136 = {
  cluster_issuer_type: 'acme',
  cluster_issuer_acme_email: 'ops@example.com',
  cluster_issuer_acme_solver: 'rfc2136',
  cluster_issuer_acme_rfc2136_nameserver: '10.0.0.53:53',
  cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA256',
  cluster_issuer_acme_rfc2136_tsig_key_name: 'acme',
  cluster_issuer_acme_rfc2136_tsig_secret_key: TSIG_SECRET,
};

/** The objects a deployment of these values leaves in the cluster (Secret data stored base64 under data). */
function deployed(values: Record<string, string>, names: 'spec' | 'platform' = 'platform'): KubeObject[] {
  return renderPlatform(values, names).objects.map(({ object }) => {
    const o = structuredClone(object) as KubeObject & { stringData?: Record<string, string> };
    if (o.stringData) {
      o.data = Object.fromEntries(Object.entries(o.stringData).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
      delete o.stringData;
    }
    return o;
  });
}

describe.skipIf(!hasKubectl)(`doctor kube.issuer-drift with kubectl${needsKubectl}`, () => {
  let api: KubeApi;
  beforeAll(async () => {
    api = await startKubeApi(new KubeState(), { context: CONTEXT });
  });
  afterAll(() => api?.stop());
  const cluster = (...objects: KubeObject[]) => {
    api.state.objects = [];
    api.state.add(...certManagerCrds(), namespace('cert-manager'), namespace('openstack'), ...objects);
  };
  const drift = async (values: Record<string, string>, ...extra: string[]) => {
    const r = await runCli(
      ['doctor', '--only', 'kube', '--inventory', inventory(values), '--context', CONTEXT, '--json', ...extra],
      { env: api.env },
    );
    const check = (
      JSON.parse(r.stdout) as {
        checks: { id: string; status: string; message: string; advice?: string; details?: Record<string, unknown> }[];
      }
    ).checks.find((c) => c.id === 'kube.issuer-drift')!;
    expect(r.stdout + r.stderr).not.toContain(TSIG_SECRET);
    return check;
  };

  it('ok when the cluster runs what the inventory renders', async () => {
    cluster(...deployed(RFC2136));
    expect(await drift(RFC2136)).toMatchObject({ status: 'ok' });
  });

  it('fails naming both solvers when the inventory was changed but not deployed', async () => {
    cluster(...deployed({ cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' }));
    const check = await drift(RFC2136);
    expect(check).toMatchObject({ status: 'fail', details: { cluster: 'acme/http01', inventory: 'acme/rfc2136' } });
  });

  it('fails naming the field when the email differs', async () => {
    cluster(...deployed({ ...RFC2136, cluster_issuer_acme_email: 'old@example.com' }));
    const check = await drift(RFC2136);
    expect(check.status).toBe('fail');
    expect(check.details!.differences).toEqual([
      'spec.acme.email: the cluster has "old@example.com", the inventory makes "ops@example.com"',
    ]);
  });

  it('fails when the credential Secret lacks its key, without reading values', async () => {
    const objects = deployed(RFC2136);
    const secret = objects.find((o) => o.kind === 'Secret')!;
    secret.data = { 'wrong-key': Buffer.from(TSIG_SECRET).toString('base64') };
    cluster(...objects);
    const check = await drift(RFC2136);
    expect(check.status).toBe('fail');
    expect(check.details!.differences).toEqual([
      'Secret cert-manager/cert-manager-issuer-tsig-secret-key lacks the key tsig-secret-key.',
    ]);
  });

  it('fails on a field edited by hand in the cluster', async () => {
    const objects = deployed(RFC2136);
    const issuer = objects.find((o) => o.kind === 'ClusterIssuer' && o.metadata.name === 'atmosphere') as KubeObject & {
      spec: { acme: Record<string, unknown> };
    };
    issuer.spec.acme.skipTLSVerify = true;
    cluster(...objects);
    const check = await drift(RFC2136);
    expect(check.status).toBe('fail');
    expect(check.details!.differences).toEqual([
      expect.stringMatching(/^spec\.acme\.skipTLSVerify: set in the cluster to true/),
    ]);
  });

  it('fails when the ClusterIssuer is missing', async () => {
    cluster();
    expect(await drift(RFC2136)).toMatchObject({ status: 'fail' });
  });

  // The platform's names are the default: nothing is guessed from the cluster.
  it("compares with the platform's names; a cluster deployed with the neutral words is a naming mismatch whose fix is --names spec", async () => {
    cluster(...deployed(RFC2136));
    const check = await drift(RFC2136);
    expect(check).toMatchObject({ status: 'ok', details: { names: 'platform', differences: [] } });
    expect(check.details).not.toHaveProperty('namesFrom');
    cluster(...deployed(RFC2136, 'spec'));
    const mismatch = await drift(RFC2136);
    expect(mismatch).toMatchObject({ status: 'fail', details: { names: 'platform', namingMismatch: true } });
    expect(mismatch.advice).toContain('--names spec');
  });

  it('--names decides: a cluster deployed with the other names is a naming mismatch with its fix, not drift', async () => {
    cluster(...deployed(RFC2136, 'platform'));
    const spec = await drift(RFC2136, '--names', 'spec');
    expect(spec).toMatchObject({ status: 'fail', details: { names: 'spec', namingMismatch: true } });
    expect(spec.message).toMatch(/^Naming mismatch, not drift/);
    expect(spec.advice).toContain('--names platform');
    expect(await drift(RFC2136, '--names', 'platform')).toMatchObject({ status: 'ok', details: { names: 'platform' } });
    expect(spec.details).not.toHaveProperty('namesFrom');
  });

  it('issuer none with an atmosphere left from before: a warning whose advice deletes it by hand, not a redeploy', async () => {
    cluster(...deployed(RFC2136));
    const check = await drift({ cluster_issuer_type: 'none', openstack_helm_ingress_secret_name: 'wildcard-certs' });
    expect(check.status).toBe('warn');
    expect(check.advice).toContain('kubectl get certificates -A -o wide');
    expect(check.advice).toMatch(/kubectl delete clusterissuer atmosphere$/);
    expect(check.advice).not.toMatch(/deploying restores|run the deployment/i);
  });

  it("regenerate compares the same way: a cluster deployed with the platform's names counts as deployed", async () => {
    const selfSigned = { cluster_issuer_type: 'self-signed' };
    cluster(...deployed(selfSigned, 'platform'));
    const answers = join(dir, `answers-${++n}.yml`);
    writeFileSync(answers, 'cluster_issuer_type: self-signed\n');
    const r = await runCli(
      [
        'regenerate',
        '--inventory',
        inventory({ cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' }),
        '--answers',
        answers,
        '--dry-run',
        '--context',
        CONTEXT,
      ],
      { env: api.env },
    );
    expect(r.stderr).not.toContain('is not yet what the new inventory makes');
    expect(r.code, r.stderr).toBe(0);
  });
});
