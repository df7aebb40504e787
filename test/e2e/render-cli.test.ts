import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli.js';

async function inventory(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cg-render-'));
  await writeFile(join(dir, 'inv.yml'), text);
  return join(dir, 'inv.yml');
}

describe('cloudgate render (built binary)', () => {
  it('prints the objects as YAML documents in the order the platform applies them, secrets masked', async () => {
    const path = await inventory(`cluster_issuer_type: acme
cluster_issuer_acme_email: ops@example.com
cluster_issuer_acme_solver: cloudflare
cluster_issuer_acme_cloudflare_api_token: cloudflare-token-value-123
`);
    const result = await runCli(['render', '--inventory', path]);
    expect(result.code).toBe(0);
    const docs = parseAllDocuments(result.stdout).map((d) => d.toJS() as { kind: string; metadata: { name: string } });
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
      'ClusterIssuer/self-signed',
      'Secret/cloudflare-api-token',
      'ClusterIssuer/atmosphere',
    ]);
    expect(result.stdout).toContain('# made from: cluster_issuer_acme_cloudflare_api_token');
    expect(result.stdout + result.stderr).not.toContain('cloudflare-token-value-123');
    expect(docs[1]).toMatchObject({ stringData: { 'api-token': '********' } });
  });

  it('--json has the render schema, the webhook Helm release and the findings; an error exits 2', async () => {
    const path = await inventory(`cluster_issuer_type: acme
cluster_issuer_acme_email: ops@example.com
cluster_issuer_acme_solver: godaddy
cluster_issuer_acme_godaddy_api_key: godaddy-key-123
`);
    const result = await runCli(['render', '--inventory', path, '--json', '--names', 'platform']);
    expect(result.code).toBe(2);
    const json = JSON.parse(result.stdout);
    expect(json.schema).toBe('cloudgate.render/v1');
    expect(json.helm).toEqual([
      {
        name: 'cert-manager-webhook-godaddy',
        namespace: 'cert-manager',
        chart: '/usr/local/src/godaddy-webhook',
        values: { groupName: 'godaddy.cert-manager.atmosphere.dev' },
      },
    ]);
    // The one judgement: the inventory rules (the provider's account limits) and the role's stop, one finding per variable.
    const errors = json.findings.filter((f: { severity: string }) => f.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({ rule: 'required', variable: 'cluster_issuer_acme_godaddy_secret_key' }),
    ]);
    expect(errors[0].message).toContain('cluster_issuer_acme_godaddy_secret_key is required');
    expect(json.findings.map((f: { rule: string }) => f.rule)).toContain('godaddy-limits');
    // The role installs the webhook, then stops at the task that templates the missing key: nothing of it is applied.
    expect(json.objects.map((o: { kind: string }) => o.kind)).toEqual(['ClusterIssuer']);
    expect(json.engine).toMatchObject({ engine: 'model' });
    expect(result.stdout).not.toContain('godaddy-key-123');
  });

  it("a webhook solver: every YAML document is one object; the Helm note opens the Secret's document", async () => {
    const path = await inventory(`cluster_issuer_acme_email: ops@example.com
cluster_issuer_acme_solver: infoblox
cluster_issuer_acme_infoblox_view: default
cluster_issuer_acme_infoblox_host: grid.example.com
cluster_issuer_acme_infoblox_username: wapi-user
cluster_issuer_acme_infoblox_password: wapi-password-1
openstack_helm_ingress_wildcard_domain: cloud.example.com
`);
    const result = await runCli(['render', '--inventory', path]);
    expect(result.code, result.stderr).toBe(0);
    const docs = parseAllDocuments(result.stdout);
    expect(docs.map((d) => d.errors)).toEqual(docs.map(() => []));
    expect(
      docs.map((d) => {
        const o = d.toJS() as { kind: string; metadata: { name: string } };
        return `${o.kind}/${o.metadata.name}`;
      }),
    ).toEqual([
      'ClusterIssuer/self-signed',
      'Secret/cert-manager-issuer-infoblox-credentials',
      'Role/webhook-infoblox-wapi:secret-reader',
      'RoleBinding/webhook-infoblox-wapi:secret-reader',
      'ClusterIssuer/atmosphere',
      'Certificate/atmosphere-wildcard',
    ]);
    const [first, second] = result.stdout.split(/^---\n/m);
    expect(first).not.toContain('Helm release');
    expect(second).toMatch(
      /^# Helm release cert-manager\/cert-manager-webhook-infoblox-wapi .*\n# {3}groupName: infoblox\.cert-manager\.atmosphere\.dev\n# Secret cert-manager\/cert-manager-issuer-infoblox-credentials\n/,
    );
    expect(result.stdout).not.toContain('wapi-password-1');
  });

  it('reads an inventory folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cg-render-'));
    await mkdir(join(dir, 'group_vars', 'all'), { recursive: true });
    await writeFile(join(dir, 'group_vars', 'all', 'certs.yml'), 'cluster_issuer_type: self-signed\n');
    const result = await runCli(['render', '--inventory', dir, '--json']);
    expect(result.code).toBe(0);
    expect(
      JSON.parse(result.stdout).objects.map(
        (o: { kind: string; metadata: { name: string } }) => `${o.kind}/${o.metadata.name}`,
      ),
    ).toEqual(['ClusterIssuer/self-signed', 'Certificate/self-signed-ca', 'ClusterIssuer/atmosphere']);
  });

  it('a bad --names value is a usage error', async () => {
    const path = await inventory('cluster_issuer_type: none\n');
    const result = await runCli(['render', '--inventory', path, '--names', 'vendor']);
    expect(result.code).toBe(2);
  });
});

describe("cloudgate render: the platform's names, and the neutral aliases", () => {
  const ROUTE53 = `cluster_issuer_type: acme
cluster_issuer_acme_email: ops@example.com
cluster_issuer_acme_solver: route53
cluster_issuer_acme_route53_auth: kubernetes
cluster_issuer_acme_route53_region: eu-west-1
cluster_issuer_acme_route53_hosted_zone_id: Z123
cluster_issuer_acme_route53_role_arn: arn:aws:iam::123456789012:role/dns
`;
  const kindsAndNames = (stdout: string) =>
    JSON.parse(stdout).objects.map((o: { kind: string; metadata: { name: string } }) => `${o.kind}/${o.metadata.name}`);

  it("names exactly the objects the role creates, under the platform's object names", async () => {
    const result = await runCli(['render', '--inventory', await inventory(ROUTE53), '--json']);
    expect(result.code).toBe(0);
    expect(kindsAndNames(result.stdout)).toEqual([
      'ClusterIssuer/self-signed',
      'ServiceAccount/cert-manager-route53',
      'Role/cert-manager-route53-tokenrequest',
      'RoleBinding/cert-manager-route53-tokenrequest',
      'ClusterIssuer/atmosphere',
    ]);
  });

  it('a neutral alias is a finding with its rename; the platform does not read it, so what it needs is undefined', async () => {
    const path = await inventory(
      'cluster_issuer_acme_solver: route53\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_route53_region: eu-west-1\ncluster_issuer_acme_clouddnsb_hosted_zone_id: Z1\n',
    );
    const result = await runCli(['render', '--inventory', path, '--json']);
    expect(result.code).toBe(2);
    const findings = JSON.parse(result.stdout).findings as {
      rule?: string;
      variable: string;
      advice?: string;
      severity: string;
    }[];
    expect(findings).toContainEqual(
      expect.objectContaining({
        rule: 'naming',
        variable: 'cluster_issuer_acme_route53_hosted_zone_id',
        advice:
          'Rename cluster_issuer_acme_clouddnsb_hosted_zone_id to cluster_issuer_acme_route53_hosted_zone_id ("cloudgate setup" offers to).',
      }),
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        variable: 'cluster_issuer_acme_route53_hosted_zone_id',
        severity: 'error',
        advice: 'Set cluster_issuer_acme_route53_hosted_zone_id in the inventory.',
      }),
    );
  });

  it('a neutral value of a choosing variable: the role has no task for it, so only the self-signed issuer is made', async () => {
    const result = await runCli([
      'render',
      '--inventory',
      await inventory(ROUTE53.replace('solver: route53', 'solver: clouddnsb')),
      '--json',
    ]);
    expect(result.code).toBe(2);
    expect(kindsAndNames(result.stdout)).toEqual(['ClusterIssuer/self-signed']);
    expect(JSON.parse(result.stdout).findings).toContainEqual(
      expect.objectContaining({
        rule: 'naming',
        advice: 'Write cluster_issuer_acme_solver: route53 ("cloudgate setup" offers to).',
      }),
    );
  });

  it('--names spec renders an inventory in the aliases with the neutral object names, and says so', async () => {
    const aliases = ROUTE53.replaceAll('route53', 'clouddnsb').replace('auth: kubernetes', 'auth: clusteroidc');
    const result = await runCli(['render', '--inventory', await inventory(aliases), '--names', 'spec']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('--names spec');
    expect(result.stdout).toContain('# ServiceAccount cert-manager/certmgr-clouddnsb');
    expect(result.stdout).toMatch(/# made from: cluster_issuer_acme_clouddnsb_service_account_name/);
    // cert-manager's own API is never renamed.
    expect(result.stdout).toContain('route53:');
  });
});
