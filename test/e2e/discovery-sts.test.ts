/**
 * `cloudgate doctor --only discovery` with keyless route53 through the built binary: the token minted
 * with the real kubectl from the Kubernetes API emulation, exchanged at the local token service, one
 * signed read at the local DNS API; the API server flags read from kubeadm-config and the control
 * plane pods. No token or temporary credential may appear anywhere in the output. Run `npm run build` first.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startAwsSts, type AwsSts } from '../servers/aws-sts.js';
import {
  KubeState,
  namespace,
  serviceAccount,
  startKubeApi,
  type KubeApi,
  type KubeObject,
} from '../servers/kube-api.js';
import { startOidcIssuer, type OidcIssuer } from '../servers/oidc-issuer.js';
import { hasKubectl, needsKubectl } from '../helpers/has-kubectl.js';

const ROLE_ARN = 'arn:aws:iam::123456789012:role/cert-manager-dns01';
const SUB = 'system:serviceaccount:cert-manager:cert-manager-route53';
const ACTIONS = [
  'route53:GetChange',
  'route53:ChangeResourceRecordSets',
  'route53:ListResourceRecordSets',
  'route53:ListHostedZonesByName',
];
const IN_CLUSTER = 'https://kubernetes.default.svc.cluster.local';
const dir = mkdtempSync(join(tmpdir(), 'cg-sts-e2e-'));

interface Report {
  checks: { id: string; status: string; message: string; advice?: string; details?: Record<string, unknown> }[];
}
const byId = (r: CliResult) => Object.fromEntries((JSON.parse(r.stdout) as Report).checks.map((c) => [c.id, c]));

function apiserverPod(node: string, issuer: string, extra: string[] = []): KubeObject {
  const command = [
    'kube-apiserver',
    `--service-account-issuer=${issuer}`,
    `--service-account-issuer=${IN_CLUSTER}`,
    `--service-account-jwks-uri=${issuer}/openid/v1/jwks`,
    `--api-audiences=${IN_CLUSTER},${issuer},sts.amazonaws.com`,
    ...extra,
  ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `kube-apiserver-${node}`, namespace: 'kube-system' },
    spec: { nodeName: node, containers: [{ name: 'kube-apiserver', command }] },
  };
}

function kubeadmConfig(issuer: string): KubeObject {
  const extraArgs = [
    { name: 'service-account-issuer', value: issuer },
    { name: 'service-account-issuer', value: IN_CLUSTER },
    { name: 'service-account-jwks-uri', value: `${issuer}/openid/v1/jwks` },
    { name: 'api-audiences', value: `${IN_CLUSTER},${issuer},sts.amazonaws.com` },
  ];
  const cc = { apiVersion: 'kubeadm.k8s.io/v1beta4', kind: 'ClusterConfiguration', apiServer: { extraArgs } };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'kubeadm-config', namespace: 'kube-system' },
    data: { ClusterConfiguration: toYaml(cc) },
  };
}

describe.skipIf(!hasKubectl)(
  `cloudgate doctor --only discovery: keyless role assumption end to end${needsKubectl}`,
  () => {
    let issuer: OidcIssuer;
    let api: KubeApi;
    const services: AwsSts[] = [];
    let caFile: string;
    let inventory: string;

    beforeAll(async () => {
      issuer = await startOidcIssuer();
      const state = new KubeState().add(
        namespace('cert-manager'),
        namespace('kube-system'),
        serviceAccount('cert-manager', 'cert-manager-route53'),
      );
      state.signingKey = issuer.keys[0];
      state.issuer = issuer.url;
      state.apiAudiences = [IN_CLUSTER, issuer.url, 'sts.amazonaws.com'];
      state.add(kubeadmConfig(issuer.url), apiserverPod('cp-1', issuer.url), apiserverPod('cp-2', issuer.url));
      api = await startKubeApi(state, { context: 'lab' });
      inventory = join(dir, 'certificates.yml');
      writeFileSync(
        inventory,
        [
          'cluster_issuer_acme_solver: route53',
          'cluster_issuer_acme_route53_auth: kubernetes',
          'cluster_issuer_acme_route53_region: eu-west-1',
          'cluster_issuer_acme_route53_hosted_zone_id: Z0123456789ABCDEFGHIJ',
          `cluster_issuer_acme_route53_role_arn: ${ROLE_ARN}`,
          '',
        ].join('\n'),
      );
      caFile = join(dir, 'cas.pem');
    });
    afterAll(async () => {
      await Promise.all([issuer?.stop(), api?.stop(), ...services.map((s) => s.stop())]);
    });

    async function doctor(aws: AwsSts, extra: string[]) {
      writeFileSync(caFile, issuer.ca.cert + readFileSync(aws.caFile, 'utf8'));
      const r = await runCli(
        [
          'doctor',
          '--only',
          'discovery',
          '--inventory',
          inventory,
          '--issuer-url',
          issuer.url,
          '--ca-file',
          caFile,
          '--context',
          'lab',
          ...extra,
        ],
        {
          env: { ...api.env, CLOUDGATE_STS_ENDPOINT: aws.url, CLOUDGATE_ROUTE53_ENDPOINT: aws.url },
        },
      );
      const output = r.stdout + r.stderr;
      expect(aws.secrets.length).toBeGreaterThan(0);
      for (const secret of aws.secrets) expect(output).not.toContain(secret);
      expect(output).not.toContain('emulated-admin-token');
      return r;
    }

    async function aws(actions = ACTIONS, sub = SUB) {
      const a = await startAwsSts({
        providers: [{ issuer: issuer.url, clientIds: ['sts.amazonaws.com'], ca: issuer.ca.cert }],
        roles: [{ arn: ROLE_ARN, trust: { issuer: issuer.url, sub, aud: 'sts.amazonaws.com' }, actions }],
        zones: [{ id: 'Z0123456789ABCDEFGHIJ', name: 'cloud.example.com.' }],
      });
      services.push(a);
      return a;
    }

    it('passes: token minted with kubectl, role assumed, zone read, flags agree; exit 0, JSON on stdout', async () => {
      const a = await aws();
      const r = await doctor(a, ['--json']);
      expect(r.code).toBe(0);
      const checks = byId(r);
      expect(checks['discovery.sts'].status).toBe('ok');
      expect(checks['discovery.sts'].message).toContain('--audience sts.amazonaws.com --duration 600s');
      expect(checks['discovery.apiserver-flags'].status).toBe('ok');
      expect(checks['discovery.apiserver-flags'].message).toContain('cp-1, cp-2');
      expect(a.requests.map((q) => q.path)).toEqual([
        '/',
        '/2013-04-01/hostedzone/Z0123456789ABCDEFGHIJ/rrset?maxitems=1',
      ]);
    });

    it('a trust policy for another subject: exit 1, the token sub shown, no secret even with --verbose', async () => {
      const a = await aws(ACTIONS, 'system:serviceaccount:cert-manager:someone-else');
      const r = await doctor(a, ['--verbose']);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('AccessDenied');
      expect(r.stdout).toContain(`sub "${SUB}"`);
      expect(r.stderr).toContain('POST');
      expect(r.stderr).toContain('[redacted]');
    });

    it('a role without DNS permissions: the actions are named', async () => {
      const a = await aws([]);
      const r = await doctor(a, ['--json', '--verbose']);
      expect(r.code).toBe(1);
      const sts = byId(r)['discovery.sts'];
      expect(sts.status).toBe('fail');
      expect(sts.details?.code).toBe('AccessDenied');
      for (const action of ACTIONS) expect(sts.advice).toContain(action);
    });
  },
);
