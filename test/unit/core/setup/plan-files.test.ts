import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maskSecretLooking, planSetup } from '../../../../src/core/setup/plan.js';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'cloudgate-plan-diff-')); });
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the setup diff masks values under secret-looking keys', () => {
  it('never shows the values of unrelated secret-looking keys in context lines, at any depth', async () => {
    const inventory = join(dir, 'certificates.yml');
    await writeFile(inventory, [
      'cluster_issuer_type: acme',
      'db_password: hunter2-db-pass',
      'app:',
      '  api_token: tok-nested-7788',
      'cluster_issuer_acme_email: old@example.com',
      'ssh_private_key: |',
      '  block-line-secret-1122',
      'signing_keys:',
      '  - key-in-list-5566',
      '',
    ].join('\n'));
    const plan = await planSetup({ answers: { cluster_issuer_acme_email: 'new@example.com' }, inventoryPath: inventory });
    expect(plan.diff).toContain('+cluster_issuer_acme_email: new@example.com');
    for (const secret of ['hunter2-db-pass', 'tok-nested-7788', 'key-in-list-5566', 'block-line-secret-1122']) {
      expect(plan.diff).not.toContain(secret);
    }
    expect(plan.diff).toContain(' db_password: ********');
    expect(plan.diff).toContain('   api_token: ********');
  });

  it('follows the table for an inventory written with the platform names too', () => {
    // The secret name is no secret (the table says so), whichever name spells it.
    expect(maskSecretLooking('openstack_helm_ingress_secret_name: wildcard-certs\ncluster_issuer_acme_route53_secret_access_key: sk-123\n'))
      .toBe('openstack_helm_ingress_secret_name: wildcard-certs\ncluster_issuer_acme_route53_secret_access_key: ********\n');
  });

  it('keeps tags, comments and other keys as they are; table variables follow the table', () => {
    expect(maskSecretLooking('cloud_helm_ingress_secret_name: wildcard-certs\n')).toBe('cloud_helm_ingress_secret_name: wildcard-certs\n');
    expect(maskSecretLooking('a: 1\nmy_secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\nb: 2 # c\nx_token: abc # note\n'))
      .toBe('a: 1\nmy_secret: !vault ********\n  ********\n  ********\nb: 2 # c\nx_token: ******** # note\n');
  });
});

describe('setup warns when another vars file of the group overrides a key it writes', () => {
  it('names the later file of the same group folder, not an earlier one', async () => {
    const group = join(dir, 'group_vars/all');
    await mkdir(join(group, 'a-sub'), { recursive: true });
    await writeFile(join(group, 'zz-overrides.yml'), 'cluster_issuer_acme_email: other@example.com\n');
    await writeFile(join(group, 'aa-early.yml'), 'cluster_issuer_type: none\n');
    await writeFile(join(group, 'a-sub/x.yml'), 'cluster_issuer_type: none\n');
    const plan = await planSetup({
      answers: { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com', cluster_issuer_acme_solver: 'http01' },
      inventoryPath: join(group, 'certificates.yml'),
    });
    const warnings = plan.findings.filter((f) => f.rule === 'overridden');
    expect(warnings.map((f) => [f.variable, f.severity])).toEqual([['cluster_issuer_acme_email', 'warning']]);
    expect(warnings[0].message).toContain(join(group, 'zz-overrides.yml'));
    // A later sub-folder counts too: Ansible reads it in place of its name.
    await mkdir(join(group, 'z-sub'));
    await writeFile(join(group, 'z-sub/x.yml'), 'cluster_issuer_type: none\n');
    const again = await planSetup({ answers: { cluster_issuer_type: 'none' }, inventoryPath: join(group, 'certificates.yml') });
    expect(again.findings.filter((f) => f.rule === 'overridden').map((f) => f.message)).toEqual([expect.stringContaining(join(group, 'z-sub/x.yml'))]);
  });

  it('says that Ansible does not read group_vars/all.yml when group_vars/all/ exists', async () => {
    await mkdir(join(dir, 'group_vars/all'), { recursive: true });
    const plan = await planSetup({ answers: { cluster_issuer_type: 'none' }, inventoryPath: join(dir, 'group_vars/all.yml') });
    const warning = plan.findings.find((f) => f.rule === 'overridden');
    expect(warning?.message).toContain(`Ansible does not read ${join(dir, 'group_vars/all.yml')}`);
  });
});
