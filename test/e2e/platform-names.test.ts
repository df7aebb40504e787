/**
 * `--names platform` end to end: setup writes the platform's own variable names (Ansible reads them),
 * the doctor and render read them, answers may use either set, and a contradiction is an error.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ansibleValue } from '../helpers/ansible.js';
import { runCli } from '../helpers/cli.js';

const SECRET = 'route53-secret-key-5150';
const PLATFORM_ANSWERS = `cluster_issuer_type: acme
cluster_issuer_acme_email: ops@example.com
cluster_issuer_acme_solver: route53
cluster_issuer_acme_route53_region: eu-west-1
cluster_issuer_acme_route53_hosted_zone_id: Z0123456789
cluster_issuer_acme_route53_auth: static
cluster_issuer_acme_route53_access_key_id: AKIAEXAMPLE
cluster_issuer_acme_route53_secret_access_key: ${SECRET}
`;
const NEUTRAL_ANSWERS = PLATFORM_ANSWERS.replaceAll('route53', 'clouddnsb');

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'cloudgate-names-')); });
afterEach(() => rm(dir, { recursive: true, force: true }));

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

type Rendered = { objects: { kind: string; metadata: { name: string }; spec?: { acme?: { solvers?: { dns01?: { route53?: Record<string, unknown> } }[] } } }[] };

describe('--names platform', () => {
  it('setup writes the platform names Ansible reads; doctor and render read them back; a neutral answer keeps them', async () => {
    const inventory = join(dir, 'inv.yml');
    const setup = await runCli(['setup', '--answers', await file('a.yml', PLATFORM_ANSWERS), '--inventory', inventory, '--yes']);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stderr).toContain("Variable names: the platform's own");
    expect(setup.stderr).not.toContain(SECRET);
    const text = await readFile(inventory, 'utf8');
    expect(text).toMatch(/^cluster_issuer_acme_solver: route53$/m);
    expect(text).not.toMatch(/_clouddnsb_|: clouddnsb$/m);
    expect(await ansibleValue(inventory, 'cluster_issuer_acme_route53_region')).toBe('eu-west-1');
    expect(await ansibleValue(inventory, 'cluster_issuer_acme_route53_secret_access_key')).toBe(SECRET);

    const doctor = await runCli(['doctor', '--only', 'inventory', '--inventory', inventory, '--json']);
    expect(doctor.code, doctor.stdout).toBe(0);
    const checks = JSON.parse(doctor.stdout).checks as { id: string; status: string; details?: { names?: string } }[];
    expect(checks.map((c) => [c.id, c.status])).toEqual([['inventory.valid', 'ok']]);
    expect(checks[0].details?.names).toBe('platform');

    // The same settings in neutral names render the same objects, field by field, apart from the naming words.
    const neutral = await file('neutral.yml', NEUTRAL_ANSWERS);
    const fromPlatform = JSON.parse((await runCli(['render', '--inventory', inventory, '--json'])).stdout) as Rendered;
    const fromNeutral = JSON.parse((await runCli(['render', '--inventory', neutral, '--json'])).stdout) as Rendered;
    const platformWords = (text: string) => text.replace(/\bcertmgr\b/g, 'cert-manager').replace(/\bclouddnsb\b/g, 'route53');
    expect(fromPlatform.objects).toEqual(JSON.parse(platformWords(JSON.stringify(fromNeutral.objects))));
    expect(fromPlatform.objects.map((o) => o.kind)).toEqual(['ClusterIssuer', 'Secret', 'ClusterIssuer']);
    const solver = (r: Rendered) => r.objects.find((o) => o.metadata.name === 'atmosphere')?.spec?.acme?.solvers?.[0].dns01?.route53;
    expect(solver(fromPlatform)).toMatchObject({ region: 'eu-west-1', hostedZoneID: 'Z0123456789', secretAccessKeySecretRef: { name: 'cert-manager-issuer-route53-credentials' } });

    const again = await runCli(['setup', '--answers', await file('b.yml', 'cluster_issuer_acme_clouddnsb_region: us-east-2\n'), '--inventory', inventory, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(await ansibleValue(inventory, 'cluster_issuer_acme_route53_region')).toBe('us-east-2');
    expect(await readFile(inventory, 'utf8')).not.toContain('clouddnsb');
  });

  it('a --names that contradicts the inventory is a usage error; an inventory mixing both has a finding per misnamed variable', async () => {
    const inventory = join(dir, 'inv.yml');
    expect((await runCli(['setup', '--answers', await file('a.yml', PLATFORM_ANSWERS), '--inventory', inventory, '--yes'])).code).toBe(0);
    const before = await readFile(inventory, 'utf8');
    const contradicted = await runCli(['setup', '--answers', await file('b.yml', 'cluster_issuer_acme_email: x@example.com\n'), '--inventory', inventory, '--yes', '--names', 'spec']);
    expect(contradicted.code).toBe(2);
    expect(await readFile(inventory, 'utf8')).toBe(before);
    expect((await runCli(['doctor', '--only', 'inventory', '--inventory', inventory, '--names', 'spec'])).code).toBe(2);

    const mixed = await file('mixed.yml', 'cluster_issuer_acme_route53_region: x\ncluster_issuer_acme_clouddnsb_hosted_zone_id: y\n');
    const doctor = await runCli(['doctor', '--only', 'inventory', '--inventory', mixed, '--json']);
    expect(doctor.code).toBe(1);
    const checks = JSON.parse(doctor.stdout).checks as { id: string; status: string; advice?: string }[];
    expect(checks.find((c) => c.id === 'inventory.naming')).toMatchObject({ status: 'fail', advice: 'Rename cluster_issuer_acme_clouddnsb_hosted_zone_id to cluster_issuer_acme_route53_hosted_zone_id.' });
  });

  it('names: platform in neutral answers writes a new inventory in the platform\'s names', async () => {
    const inventory = join(dir, 'new.yml');
    const setup = await runCli(['setup', '--answers', await file('n.yml', `names: platform\n${NEUTRAL_ANSWERS}`), '--inventory', inventory, '--yes']);
    expect(setup.code).toBe(0);
    const text = await readFile(inventory, 'utf8');
    expect(text).toMatch(/^cluster_issuer_acme_solver: route53$/m);
    expect(text).toContain('cluster_issuer_acme_route53_region');
    expect(text).not.toMatch(/_clouddnsb_|: clouddnsb$/m);
    expect((await runCli(['setup', '--answers', await file('bad.yml', 'names: atmosphere\n'), '--inventory', inventory, '--yes'])).code).toBe(2);
  });

  it('schema --names platform describes the platform names and values', async () => {
    const r = await runCli(['schema', '--names', 'platform']);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout) as { properties: Record<string, { enum?: string[] }> };
    expect(schema.properties).toHaveProperty('cluster_issuer_acme_route53_region');
    expect(schema.properties).not.toHaveProperty('cluster_issuer_acme_clouddnsb_region');
    expect(schema.properties.cluster_issuer_acme_solver.enum).toContain('route53');
    expect(schema.properties.cluster_issuer_type.enum).toContain('venafi');
    expect(schema.properties).toHaveProperty('openstack_helm_ingress_secret_name');
  });
});
