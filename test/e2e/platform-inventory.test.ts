/**
 * Every command on an inventory laid out as the platform's own (test/fixtures/inventory/platform/:
 * hosts.yml, group_vars/all/*.yml with other roles' variables, group_vars/cephs/, host_vars/), through
 * the built binary: setup with answers, the walkthrough in a real terminal, regenerate, render and
 * doctor --only inventory speak only the platform's words; each inventory written is read back with
 * `ansible-inventory`. Neutral aliases (in answers, in an inventory) are translated and said so.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ansibleInventoryHost } from '../helpers/ansible.js';
import { runCli } from '../helpers/cli.js';
import { createTestCA } from '../helpers/pki.js';
import { launchCloudgate, type Terminal } from '../helpers/tmux.js';

const FIXTURE = new URL('../fixtures/inventory/platform/', import.meta.url).pathname;
const HOST = 'ctl1.cloud.example.com';
const SECRET = 'fixture-route53-secret-access-key-2291';
/** The neutral aliases: none may appear in what a command says or writes about a platform inventory. */
const ALIAS = /clouddns|commercialca|certmgr|cloud_helm|platform_ingress|clusteroidc|\bdns[cde]\b/i;

let dir: string;
let term: Terminal | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudgate-platform-'));
  cpSync(FIXTURE, dir, { recursive: true });
});
afterEach(() => {
  term?.kill();
  term = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const hosts = () => join(dir, 'hosts.yml');
const certificates = () => join(dir, 'group_vars', 'all', 'cluster_issuer.yml');
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
/** The fixture's certificate variables in the neutral aliases, as an older cloudgate wrote them. */
const inAliases = (text: string) =>
  text
    .replaceAll('_route53_', '_clouddnsb_')
    .replace('solver: route53', 'solver: clouddnsb')
    .replace(/^openstack_helm_ingress_/m, 'cloud_helm_ingress_')
    .replace(/^atmosphere_ingress_annotations/m, 'platform_ingress_annotations');

describe("the platform's inventory layout", () => {
  it('doctor --only inventory and render read it in its own words, and render names exactly the objects the role creates', async () => {
    const doctor = await runCli(['doctor', '--only', 'inventory', '--inventory', dir, '--json']);
    expect(doctor.code, doctor.stdout).toBe(0);
    const [check] = JSON.parse(doctor.stdout).checks as {
      id: string;
      status: string;
      message: string;
      details: { names: string };
    }[];
    expect(check).toMatchObject({ id: 'inventory.valid', status: 'ok', details: { names: 'platform' } });
    expect(check.message).toContain('issuer acme, route53 auth static');

    const json = await runCli(['render', '--inventory', dir, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const objects = JSON.parse(json.stdout).objects as {
      kind: string;
      metadata: { name: string; namespace?: string };
      spec?: { acme?: { solvers: { dns01: { route53: Record<string, unknown> } }[] } };
    }[];
    expect(
      objects.map((o) => `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`),
    ).toEqual([
      'ClusterIssuer/self-signed',
      'Secret/cert-manager/cert-manager-issuer-route53-credentials',
      'ClusterIssuer/atmosphere',
      'Certificate/openstack/atmosphere-wildcard',
    ]);
    // The role ARN is used with static keys too: assumed after them.
    expect(objects[2].spec!.acme!.solvers[0].dns01.route53).toEqual({
      region: 'eu-west-1',
      hostedZoneID: 'Z0123456789ABCDEFGHIJ',
      role: 'arn:aws:iam::123456789012:role/dns-admin',
      accessKeyID: 'AKIAFIXTUREEXAMPLE01',
      secretAccessKeySecretRef: { name: 'cert-manager-issuer-route53-credentials', key: 'secret-access-key' },
    });
    const yaml = await runCli(['render', '--inventory', dir]);
    expect(yaml.stdout).toContain(
      '# made from: cluster_issuer_acme_route53_secret_name, cluster_issuer_acme_route53_secret_access_key',
    );
    for (const out of [doctor, json, yaml]) {
      expect(out.stdout + out.stderr).not.toMatch(ALIAS);
      expect(out.stdout + out.stderr).not.toContain(SECRET);
    }
  });

  it('setup --answers rewrites its certificate file in place, leaves the other files alone, and Ansible reads the result', async () => {
    const others = readFileSync(join(dir, 'group_vars', 'all', 'endpoints.yml'), 'utf8');
    const answers = file(
      'answers.yml',
      'cluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_cloudflare_api_token: cf-token-88231\n',
    );
    const setup = await runCli(['setup', '--answers', answers, '--inventory', certificates(), '--yes']);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stderr).toContain(
      'Remove: cluster_issuer_acme_route53_region (not used with cluster_issuer_acme_solver: cloudflare)',
    );
    expect(setup.stderr).not.toMatch(ALIAS);
    expect(setup.stderr).not.toContain('cf-token-88231');
    expect(readFileSync(join(dir, 'group_vars', 'all', 'endpoints.yml'), 'utf8')).toBe(others);
    const vars = await ansibleInventoryHost(hosts(), HOST);
    expect(vars).toMatchObject({
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: 'cf-token-88231',
      openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
      keycloak_host: 'auth.cloud.example.com',
      ansible_host: '10.0.0.11',
    });
    expect(Object.keys(vars).filter((k) => k.includes('route53'))).toEqual([]);
    const doctor = await runCli(['doctor', '--only', 'inventory', '--inventory', dir]);
    expect(doctor.code, doctor.stdout).toBe(0);
  });

  it("answers in the neutral aliases are read as the platform's words, said so, and written in them", async () => {
    const ca = createTestCA('cloudgate platform layout CA');
    const pem = ca.cert.replace(/\r\n/g, '\n');
    file('tpp-ca.pem', pem);
    const answers = file(
      'answers.yml',
      [
        'cluster_issuer_type: commercialca',
        'cluster_issuer_commercialca_ca: file:tpp-ca.pem',
        'cluster_issuer_commercialca_zone: Cloud',
        'cluster_issuer_commercialca_tpp_url: https://tpp.example.com/vedsdk',
        'cluster_issuer_commercialca_tpp_ca_bundle: file:tpp-ca.pem',
        'cluster_issuer_commercialca_access_token: tpp-token-1044',
        'platform_ingress_annotations: {cert-manager.io/subject-countries: CH}',
        '',
      ].join('\n'),
    );
    const setup = await runCli(['setup', '--answers', answers, '--inventory', certificates(), '--yes']);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stderr).toContain(
      'Read as: cluster_issuer_type: commercialca -> cluster_issuer_type: venafi (a neutral alias in the answers)',
    );
    expect(setup.stderr).toContain('Read as: cluster_issuer_commercialca_zone -> cluster_issuer_venafi_zone');
    expect(setup.stderr).toContain('Issuer: venafi (was acme)');
    const written = readFileSync(certificates(), 'utf8');
    expect(written).not.toMatch(ALIAS);
    const vars = await ansibleInventoryHost(hosts(), HOST);
    expect(vars).toMatchObject({
      cluster_issuer_type: 'venafi',
      cluster_issuer_venafi_zone: 'Cloud',
      cluster_issuer_venafi_access_token: 'tpp-token-1044',
      atmosphere_ingress_annotations: { 'cert-manager.io/subject-countries': 'CH' },
    });
    // The bundle goes to a base64 field: written encoded.
    expect(Buffer.from(String(vars.cluster_issuer_venafi_tpp_ca_bundle), 'base64').toString()).toContain(
      'BEGIN CERTIFICATE',
    );
  });

  it('an inventory in the neutral aliases: doctor reports each with its rename; setup renames them in place; then it is clean', async () => {
    const neutral = inAliases(readFileSync(certificates(), 'utf8'));
    writeFileSync(certificates(), neutral);
    const before = await runCli(['doctor', '--only', 'inventory', '--inventory', dir, '--json']);
    expect(before.code).toBe(1);
    const checks = JSON.parse(before.stdout).checks as { id: string; status: string; advice: string }[];
    expect(checks.every((c) => c.id.startsWith('inventory.naming') && c.status === 'fail')).toBe(true);
    expect(checks.map((c) => c.advice)).toContain(
      'Rename cluster_issuer_acme_clouddnsb_region to cluster_issuer_acme_route53_region ("cloudgate setup" offers to).',
    );
    expect(checks.map((c) => c.advice)).toContain(
      'Write cluster_issuer_acme_solver: route53 ("cloudgate setup" offers to).',
    );
    // Ansible sees the aliases as they are: the platform's role would read none of them.
    expect(await ansibleInventoryHost(hosts(), HOST)).toHaveProperty(
      'cluster_issuer_acme_clouddnsb_region',
      'eu-west-1',
    );

    const answers = file('answers.yml', 'cluster_issuer_acme_email: certificates@cloud.example.com\n');
    const setup = await runCli(['setup', '--answers', answers, '--inventory', certificates(), '--yes']);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stderr).toContain('Rename: cluster_issuer_acme_solver: clouddnsb -> route53');
    expect(setup.stderr).toContain(
      "Rename: cluster_issuer_acme_clouddnsb_role_arn -> cluster_issuer_acme_route53_role_arn (the platform's own name)",
    );
    expect(setup.stderr).not.toContain(SECRET);
    // In place: the same lines in the same order, comments kept, only the words changed.
    expect(readFileSync(certificates(), 'utf8')).toBe(
      readFileSync(join(FIXTURE, 'group_vars', 'all', 'cluster_issuer.yml'), 'utf8'),
    );
    const vars = await ansibleInventoryHost(hosts(), HOST);
    expect(vars).toMatchObject({
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_region: 'eu-west-1',
      cluster_issuer_acme_route53_secret_access_key: SECRET,
    });
    expect(Object.keys(vars).filter((k) => ALIAS.test(k))).toEqual([]);
    expect((await runCli(['doctor', '--only', 'inventory', '--inventory', dir])).code).toBe(0);
  });

  it("regenerate --dry-run reviews an issuer change in the platform's words", async () => {
    const ca = createTestCA('cloudgate regenerate CA');
    file('ca.pem', ca.cert.replace(/\r\n/g, '\n'));
    file('ca.key', ca.key.replace(/\r\n/g, '\n'));
    const answers = file(
      'issuer.yml',
      'cluster_issuer_type: ca\ncluster_issuer_ca_certificate: file:ca.pem\ncluster_issuer_ca_private_key: file:ca.key\n',
    );
    const before = readFileSync(certificates(), 'utf8');
    const r = await runCli(['regenerate', '--answers', answers, '--inventory', certificates(), '--dry-run'], {
      env: { KUBECONFIG: join(dir, 'no-kubeconfig') },
    });
    expect(r.stderr).toContain('Issuer: ca (was acme)');
    expect(r.stderr).toContain('Remove: cluster_issuer_acme_route53_role_arn (not used with cluster_issuer_type: ca)');
    expect(r.stderr).toContain('- Secret cert-manager/cert-manager-issuer-route53-credentials');
    expect(r.stderr).toContain('+ Secret cert-manager/cert-manager-issuer-ca (new)');
    expect(r.stdout + r.stderr).not.toMatch(ALIAS);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    expect(readFileSync(certificates(), 'utf8')).toBe(before);
  });

  it("the walkthrough in a real terminal asks in the platform's words and writes them; Ansible reads them", async () => {
    unlinkSync(certificates());
    term = launchCloudgate(['setup', '--inventory', certificates()], { cwd: dir, size: { x: 100, y: 30 } });
    const at = async (text: string | RegExp, ...keys: string[]) => {
      await term!.waitFor(text);
      await term!.press(...keys);
    };
    const type = async (text: string, literal: string) => {
      await term!.waitFor(text);
      term!.send('-l', literal);
      await term!.waitFor(literal);
      term!.send('Enter');
    };
    const seen: string[] = [];
    await at('Certificate type', 'Enter');
    await at('Certificate issuer', 'Enter');
    await type('cluster_issuer_acme_email', 'certificates@cloud.example.com');
    await at('cluster_issuer_acme_server', 'Enter');
    await at('cluster_issuer_acme_solver', 'Down', 'Down', 'Down');
    seen.push(await term.waitFor('> route53'));
    term.send('Enter');
    await at('cluster_issuer_acme_route53_auth', 'Down');
    seen.push(await term.waitFor('> ambient'));
    term.send('Enter');
    await type('cluster_issuer_acme_route53_region', 'eu-west-1');
    await type('cluster_issuer_acme_route53_hosted_zone_id', 'Z0123456789ABCDEFGHIJ');
    seen.push(await term.waitFor('cluster_issuer_acme_route53_role_arn'));
    term.send('Enter');
    await at('Add certificate subject annotations?', 'Enter');
    seen.push(await term.waitFor('Enter write these files'));
    term.send('Enter');
    seen.push(await term.waitFor('EXIT=0'));
    for (const screen of seen) expect(screen).not.toMatch(ALIAS);
    expect(seen.join('\n')).toMatch(
      /azuredns[\s\S]*rfc2136[\s\S]*route53[\s\S]*cloudflare[\s\S]*godaddy[\s\S]*infoblox/,
    );
    expect(await ansibleInventoryHost(hosts(), HOST)).toMatchObject({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: 'ambient',
      cluster_issuer_acme_route53_region: 'eu-west-1',
      cluster_issuer_acme_route53_hosted_zone_id: 'Z0123456789ABCDEFGHIJ',
    });
    expect(readFileSync(certificates(), 'utf8')).not.toMatch(ALIAS);
  });

  it('--names spec writes the neutral aliases, said in the review; only --names spec reads them without findings', async () => {
    unlinkSync(certificates());
    const answers = file(
      'answers.yml',
      'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_cloudflare_api_token: cf-token-5\n',
    );
    const setup = await runCli([
      'setup',
      '--answers',
      answers,
      '--inventory',
      certificates(),
      '--yes',
      '--names',
      'spec',
    ]);
    expect(setup.code, setup.stderr).toBe(0);
    expect(setup.stderr).toContain(
      "Variable names: the neutral aliases (--names spec): the platform's own role does not read them.",
    );
    expect(await ansibleInventoryHost(hosts(), HOST)).toMatchObject({
      cluster_issuer_acme_solver: 'dnsc',
      cluster_issuer_acme_dnsc_api_token: 'cf-token-5',
    });
    expect(
      (await runCli(['doctor', '--only', 'inventory', '--inventory', certificates(), '--names', 'spec'])).code,
    ).toBe(0);
    // Read as the platform reads it, the aliases are findings; read with --names spec, the platform's own names elsewhere are.
    const platform = await runCli(['doctor', '--only', 'inventory', '--inventory', dir, '--json']);
    expect(platform.code).toBe(1);
    expect(JSON.parse(platform.stdout).checks.map((c: { advice: string }) => c.advice)).toContain(
      'Write cluster_issuer_acme_solver: cloudflare ("cloudgate setup" offers to).',
    );
    const spec = await runCli(['doctor', '--only', 'inventory', '--inventory', dir, '--names', 'spec', '--json']);
    expect(JSON.parse(spec.stdout).checks.map((c: { advice: string }) => c.advice)).toEqual([
      'Rename atmosphere_ingress_class_name to platform_ingress_class_name ("cloudgate setup" offers to).',
    ]);
  });
});
