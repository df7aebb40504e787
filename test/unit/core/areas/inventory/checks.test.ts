import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DoctorInput } from '../../../../../src/core/doctor/input.js';
import { runChecks } from '../../../../../src/core/doctor/runner.js';
import { provideChecks } from '../../../../../src/core/areas/inventory/checks.js';
import { flagFields } from '../../../../helpers/doctor-options.js';

const FIXTURES = new URL('../../../../fixtures/inventory/', import.meta.url).pathname;
const input = (inventoryPath: string, inventoryExplicit = true): DoctorInput => ({
  ...flagFields(),
  env: {},
  cwd: FIXTURES,
  config: {},
  inventoryPath,
  inventoryExplicit,
  network: { timeoutMs: 1000, insecure: false, allowHttp: false, verbose: false, log: () => undefined },
});
const run = async (path: string, explicit = true) =>
  (await runChecks(await provideChecks(input(path, explicit)))).checks;

describe('doctor group inventory', () => {
  it('reports one inventory.valid ok line for a clean inventory', async () => {
    const checks = await run(FIXTURES + 'good.yml');
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ id: 'inventory.valid', group: 'inventory', status: 'ok' });
  });

  it('reports each finding as inventory.<rule>.<variable> with its status, never the secret values', async () => {
    const checks = await run(FIXTURES + 'bad.yml');
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId['inventory.venafi-auth.cluster_issuer_venafi_access_token'].status).toBe('fail');
    expect(byId['inventory.unknown-variable.openstack_helm_ingress_wildcard_domian'].status).toBe('warn');
    expect(byId['inventory.unknown-variable.openstack_helm_ingress_wildcard_domian'].advice).toBe(
      'Did you mean openstack_helm_ingress_wildcard_domain?',
    );
    expect(byId['inventory.unused-variable.cluster_issuer_acme_email']).toMatchObject({
      status: 'warn',
      facts: { variable: 'cluster_issuer_acme_email' },
    });
    expect(byId['inventory.required.cluster_issuer_venafi_ca']).toMatchObject({
      status: 'fail',
      facts: { variable: 'cluster_issuer_venafi_ca' },
    });
    const text = JSON.stringify(checks);
    expect(text).not.toContain('hunter2-password');
    expect(text).not.toContain('tpp-token-value-1234');
  });

  it('lints an inventory folder and reports a variable defined twice with different values', async () => {
    const checks = await run(FIXTURES + 'site');
    const dup = checks.find((c) => c.id === 'inventory.duplicate.cluster_issuer_acme_email');
    expect(dup).toMatchObject({ status: 'warn', facts: { variable: 'cluster_issuer_acme_email' } });
    expect(dup!.message).toContain('group_vars/controllers/certificates.yml');
    expect(checks.map((c) => c.id)).not.toContain('inventory.valid');
  });

  it("an inventory in the platform's names gets titles, messages and advice in its words, values included", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cg-inv-')), 'venafi.yml');
    writeFileSync(
      path,
      [
        'cluster_issuer_type: venafi',
        'cluster_issuer_venafi_zone: Z',
        'cluster_issuer_venafi_tpp_url: https://tpp.example.com/vedsdk',
        'cluster_issuer_venafi_access_token: tpp-token-1',
        'cluster_issuer_venafi_username: u',
        'cluster_issuer_venafi_password: tpp-password-1',
        '',
      ].join('\n'),
    );
    const checks = await run(path);
    const auth = checks.find((c) => c.id === 'inventory.venafi-auth.cluster_issuer_venafi_access_token')!;
    expect(auth.title).toBe('Venafi auth (cluster_issuer_venafi_access_token)');
    const required = checks.find((c) => c.id === 'inventory.required.cluster_issuer_venafi_ca')!;
    expect(required.message).toBe(
      'cluster_issuer_venafi_ca is required with cluster_issuer_type: venafi but is not set.',
    );
    expect(JSON.stringify(checks)).not.toMatch(/commercialca|clouddns|certmgr/i);
  });

  it('skips a missing default inventory and fails a missing --inventory path', async () => {
    expect((await run(FIXTURES + 'absent.yml', false))[0]).toMatchObject({ id: 'inventory.file', status: 'skip' });
    expect((await run(FIXTURES + 'absent.yml', true))[0]).toMatchObject({ id: 'inventory.file', status: 'fail' });
  });

  it('doctor --only inventory fails the same inventory with inventory.platform-needs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-inventory-checks-'));
    const inventory = join(dir, 'certificates.yml');
    const ROUTE53 = {
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: 'ambient',
    };
    writeFileSync(
      inventory,
      Object.entries(ROUTE53)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n') + '\n',
    );
    const checks = await provideChecks({
      inventoryPath: inventory,
      inventoryExplicit: true,
      ...flagFields(),
      env: {},
      cwd: dir,
    } as never);
    const report = await runChecks(checks);
    expect(report.checks.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([
      'inventory.platform-needs.cluster_issuer_acme_route53_region',
      'inventory.platform-needs.cluster_issuer_acme_route53_hosted_zone_id',
    ]);
  });
});

describe("doctor group inventory on a platform inventory with the role's own settings", () => {
  const write = (text: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'cloudgate-role-')), 'inv.yml');
    writeFileSync(path, text);
    return path;
  };

  it('knows every setting of the role (webhook release, group, RBAC, TTL, production): all ok', async () => {
    const checks = await run(
      write(
        [
          'cluster_issuer_acme_email: ops@example.com',
          'cluster_issuer_acme_solver: godaddy',
          'cluster_issuer_acme_godaddy_api_key: k1',
          'cluster_issuer_acme_godaddy_secret_key: s1',
          'cluster_issuer_acme_godaddy_helm_release_name: godaddy-hook',
          'cluster_issuer_acme_godaddy_helm_release_namespace: webhooks',
          'cluster_issuer_acme_godaddy_group_name: acme.example.com',
          'cluster_issuer_acme_godaddy_role_name: gd-reader',
          'cluster_issuer_acme_godaddy_is_production: false',
          'cluster_issuer_acme_godaddy_ttl: 300',
          'atmosphere_ingress_cluster_issuer: corp',
          'atmosphere_ingress_class_name: nginx',
          '',
        ].join('\n'),
      ),
    );
    // Every setting is known (no unknown-variable); what they make deploys, but the webhook then reads
    // its Secret from cert-manager's namespace, not "webhooks", and production false is GoDaddy's test API.
    expect(checks.filter((c) => c.status !== 'ok').map((c) => [c.id, c.status])).toEqual([
      ['inventory.godaddy-limits.cluster_issuer_acme_solver', 'warn'],
      ['inventory.never-issues.cluster_issuer_acme_godaddy_helm_release_namespace', 'fail'],
      ['inventory.never-issues.cluster_issuer_acme_godaddy_is_production', 'warn'],
    ]);
  });

  it("an empty name that replaces the role's default is a failure naming the default; a neutral alias is a naming finding", async () => {
    const checks = await run(
      write(
        'cluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_private_key_secret_name: ""\nplatform_ingress_annotations: {}\natmosphere_ingress_class_name: nginx\n',
      ),
    );
    // cert-manager's webhook refuses it; the role's default is named in the fix.
    const empty = checks.find(
      (c) => c.facts?.variable === 'cluster_issuer_acme_private_key_secret_name' && c.status === 'fail',
    );
    expect(empty?.message).toContain('private key secret name is a required field');
    expect(empty!.advice).toContain('cert-manager-issuer-account-key');
    expect(checks.find((c) => c.id === 'inventory.naming.atmosphere_ingress_annotations')).toMatchObject({
      status: 'fail',
      advice: 'Rename platform_ingress_annotations to atmosphere_ingress_annotations ("cloudgate setup" offers to).',
    });
  });
});
