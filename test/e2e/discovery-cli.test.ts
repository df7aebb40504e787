/**
 * `cloudgate doctor --only discovery` (and `--only kube`) through the built binary, against a local
 * HTTPS issuer and the Kubernetes API emulation driven by the real kubectl. Run `npm run build` first.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createSigningKey, serviceAccountClaims, signJwt } from '../servers/jwt.js';
import {
  certManagerCrds,
  KubeState,
  namespace,
  serviceAccount,
  startKubeApi,
  tokenCreatorRbac,
  type KubeApi,
} from '../servers/kube-api.js';
import { startOidcIssuer, type OidcIssuer } from '../servers/oidc-issuer.js';
import { hasKubectl, needsKubectl } from '../helpers/has-kubectl.js';

const dir = mkdtempSync(join(tmpdir(), 'cg-discovery-e2e-'));

interface Report {
  summary: Record<string, number>;
  checks: { id: string; status: string; message: string; advice?: string }[];
}
const byId = (report: Report) => Object.fromEntries(report.checks.map((c) => [c.id, c]));

let good: OidcIssuer;
let slash: OidcIssuer;
beforeAll(async () => {
  good = await startOidcIssuer({ keys: [createSigningKey('RS256')] });
  slash = await startOidcIssuer({ issuer: (u) => `${u}/` });
});
afterAll(async () => {
  await good?.stop();
  await slash?.stop();
});

describe('cloudgate doctor --only discovery', () => {
  it('reports a correct issuer as JSON on stdout, exit 0, and verifies a --token-file without printing it', async () => {
    const claims = serviceAccountClaims({
      issuer: good.url,
      audiences: ['https://kubernetes.default.svc.cluster.local', good.url, 'sts.amazonaws.com'],
      namespace: 'cert-manager',
      serviceAccount: 'cert-manager-route53',
    });
    const token = signJwt(claims, good.keys[0]);
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, token, { mode: 0o600 });
    const r = await runCli(
      [
        'doctor',
        '--only',
        'discovery',
        '--issuer-url',
        good.url,
        '--ca-file',
        good.caFile,
        '--token-file',
        tokenFile,
        '--json',
      ],
      {
        env: { KUBECONFIG: join(dir, 'none') },
      },
    );
    expect(r.code).toBe(0);
    const checks = byId(JSON.parse(r.stdout) as Report);
    expect(checks['discovery.document'].status).toBe('ok');
    expect(checks['discovery.issuer'].status).toBe('ok');
    expect(checks['discovery.jwks'].status).toBe('ok');
    expect(checks['discovery.tls'].status).toBe('warn');
    expect(checks['discovery.token'].status).toBe('ok');
    expect(r.stdout + r.stderr).not.toContain(token);
  });

  it('exits 1 with the trailing-slash finding in the text report', async () => {
    const r = await runCli(
      ['doctor', '--only', 'discovery', '--issuer-url', slash.url, '--ca-file', slash.caFile, '--verbose'],
      {
        env: { KUBECONFIG: join(dir, 'none') },
      },
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('trailing slash');
    expect(r.stdout).toContain(`--service-account-issuer=${slash.url}`);
  });

  it('lists its checks', async () => {
    const r = await runCli(['doctor', '--only', 'discovery,kube', '--list-checks']);
    expect(r.code).toBe(0);
    for (const id of [
      'discovery.document',
      'discovery.issuer',
      'discovery.jwks-uri',
      'discovery.jwks',
      'discovery.tls',
      'kube.crd-version',
      'kube.service-account',
      'kube.token-permission',
    ]) {
      expect(r.stdout).toContain(id);
    }
  });
});

describe.skipIf(!hasKubectl)(
  `cloudgate doctor --only kube (route53 auth kubernetes) with kubectl${needsKubectl}`,
  () => {
    let api: KubeApi;
    beforeAll(async () => {
      api = await startKubeApi(
        new KubeState().add(
          namespace('cert-manager'),
          ...certManagerCrds('v1.15.5'),
          serviceAccount('cert-manager', 'cert-manager'),
          serviceAccount('cert-manager', 'cert-manager-route53'),
          ...tokenCreatorRbac('cert-manager', 'cert-manager-route53'),
        ),
        { context: 'lab' },
      );
    });
    afterAll(() => api?.stop());

    it('passes the cluster checks through --context, and skips with the reason for an unknown context', async () => {
      const inventory = join(dir, 'certificates.yml');
      writeFileSync(inventory, 'cluster_issuer_acme_solver: route53\ncluster_issuer_acme_route53_auth: kubernetes\n');
      const ok = await runCli(['doctor', '--only', 'kube', '--inventory', inventory, '--context', 'lab', '--json'], {
        env: api.env,
      });
      const checks = byId(JSON.parse(ok.stdout) as Report);
      expect(checks['kube.crd-version'].status).toBe('ok');
      expect(checks['kube.service-account'].status).toBe('ok');
      expect(checks['kube.token-permission'].status).toBe('ok');

      const missing = await runCli(
        ['doctor', '--only', 'kube', '--inventory', inventory, '--context', 'elsewhere', '--json'],
        { env: api.env },
      );
      const skipped = byId(JSON.parse(missing.stdout) as Report);
      expect(skipped['kube.crd-version'].status).toBe('skip');
      expect(skipped['kube.crd-version'].message).toContain('no context "elsewhere"');
    });
  },
);
