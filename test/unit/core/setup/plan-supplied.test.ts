import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan, planSetup } from '../../../../src/core/setup/plan.js';
import { reviewOf, reviewText } from '../../../../src/core/setup/review.js';
import { inventoryRoot, insideVarsFolder } from '../../../../src/core/setup/plan-supplied.js';
import { createTestCA } from '../../../helpers/pki.js';

/** The inventory as Ansible reads it: `ansible-inventory --list -i ROOT`, parsed. */
function ansibleInventoryList(root: string): Promise<Record<string, unknown> & { stderr: string }> {
  const env = {
    ...process.env,
    ANSIBLE_NOCOLOR: '1',
    ANSIBLE_INVENTORY_UNPARSED_WARNING: 'false',
    ANSIBLE_LOCALHOST_WARNING: 'false',
  };
  return new Promise((resolve, reject) => {
    execFile(
      'ansible-inventory',
      ['--list', '-i', root],
      { env, timeout: 60_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`ansible-inventory failed (${error.code}): ${stderr || stdout}`));
        resolve({ ...(JSON.parse(stdout) as Record<string, unknown>), stderr });
      },
    );
  });
}

let root: string;
let inventory: string;
let answers: Record<string, unknown>;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cloudgate-supplied-'));
  await mkdir(join(root, 'group_vars', 'all'), { recursive: true });
  // Three hosts, so that Ansible reads group_vars/all for each of them.
  await writeFile(
    join(root, 'hosts'),
    '[controllers]\nctl1 ansible_host=127.0.0.1\nctl2 ansible_host=127.0.0.1\nctl3 ansible_host=127.0.0.1\n',
  );
  inventory = join(root, 'group_vars', 'all', 'certificates.yml');
  const ca = createTestCA('supplied test CA');
  const leaf = ca.issue(['*.cloud.example.com']);
  await writeFile(join(root, 'wildcard.pem'), leaf.cert + ca.cert);
  await writeFile(join(root, 'wildcard.key'), leaf.key);
  answers = {
    openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
    openstack_helm_ingress_secret_name: 'cloud-wildcard',
    wildcard_certificate_file: join(root, 'wildcard.pem'),
    wildcard_key_file: join(root, 'wildcard.key'),
  };
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the TLS Secret manifest of a supplied wildcard', () => {
  it('finds the inventory root above group_vars/ and host_vars/', () => {
    expect(inventoryRoot('/srv/inv/group_vars/all/certificates.yml')).toBe('/srv/inv');
    expect(inventoryRoot('/srv/inv/host_vars/ctl1.yml')).toBe('/srv/inv');
    expect(inventoryRoot('/srv/certificates.yml')).toBe('/srv');
    expect(insideVarsFolder('/srv/inv/group_vars/all/x.secret.yaml')).toBe(true);
    expect(insideVarsFolder('/srv/inv/manifests/x.secret.yaml')).toBe(false);
  });

  it('goes to <inventory root>/manifests/ (0600), and Ansible reads the inventory with no Secret among its variables', async () => {
    const plan = await planSetup({
      answers,
      inventoryPath: inventory,
      namespaces: ['openstack', 'auth-system', 'monitoring'],
    });
    expect(plan.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const manifest = join(root, 'manifests', 'cloud-wildcard.secret.yaml');
    expect(plan.supplied?.manifestPath).toBe(manifest);
    // The review says where it goes and why.
    const review = reviewText(reviewOf(plan)).join('\n');
    expect(review).toContain(manifest);
    expect(review).toContain('not in group_vars/');
    await applyPlan(plan);
    expect((await stat(manifest)).mode & 0o777).toBe(0o600);

    const listed = await ansibleInventoryList(root);
    const hostvars = (listed._meta as { hostvars: Record<string, Record<string, unknown>> }).hostvars;
    expect(Object.keys(hostvars).sort()).toEqual(['ctl1', 'ctl2', 'ctl3']);
    expect(hostvars.ctl1).toMatchObject({
      cluster_issuer_type: 'none',
      openstack_helm_ingress_secret_name: 'cloud-wildcard',
    });
    // The manifests folder is read as an inventory source too (-i <root>): it adds no group and echoes nothing.
    expect((listed.all as { children: string[] }).children.sort()).toEqual(['controllers', 'ungrouped']);
    expect(listed.stderr).not.toContain(
      Buffer.from(await readFile(join(root, 'wildcard.key'), 'utf8'))
        .toString('base64')
        .slice(0, 40),
    );
    for (const vars of Object.values(hostvars)) {
      expect(Object.keys(vars)).not.toContain('data');
      expect(Object.keys(vars)).not.toContain('kind');
    }
  });

  it('moves a manifest an older cloudgate wrote inside group_vars/, and says so in the review', async () => {
    const old = join(root, 'group_vars', 'all', 'cloud-wildcard.secret.yaml');
    await writeFile(old, 'apiVersion: v1\nkind: Secret\n', { mode: 0o600 });
    const plan = await planSetup({ answers, inventoryPath: inventory });
    expect(plan.supplied?.movedFrom).toBe(old);
    const moved = plan.findings.find((f) => f.rule === 'manifest-moved');
    expect(moved?.severity).toBe('warning');
    expect(moved?.message).toContain(old);
    await applyPlan(plan);
    expect(existsSync(old)).toBe(false);
    expect(await readFile(join(root, 'manifests', 'cloud-wildcard.secret.yaml'), 'utf8')).toContain('kind: Secret');
    await expect(ansibleInventoryList(root)).resolves.toHaveProperty('_meta');
  });

  it('checks the names against the wildcard domain but writes no domain: with one the platform would issue its own Certificate', async () => {
    await writeFile(
      inventory,
      'openstack_helm_ingress_wildcard_domain: cloud.example.com\ncluster_issuer_type: acme\n',
    );
    const plan = await planSetup({
      answers: { ...answers, openstack_helm_ingress_wildcard_domain: 'other.example.com' },
      inventoryPath: inventory,
    });
    // The certificate covers *.cloud.example.com, not the domain the answers give: the check used it.
    expect(plan.findings.some((f) => f.severity === 'error' && f.variable === 'wildcard_certificate_file')).toBe(true);
    const fresh = await planSetup({ answers, inventoryPath: inventory });
    expect(fresh.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(fresh.findings).toContainEqual(
      expect.objectContaining({ rule: 'supplied-wildcard-domain', variable: 'openstack_helm_ingress_wildcard_domain' }),
    );
    await applyPlan(fresh);
    const written = await readFile(inventory, 'utf8');
    expect(written).not.toContain('openstack_helm_ingress_wildcard_domain');
    expect(written).toContain('cluster_issuer_type: none');
  });

  it('refuses --secret-manifest inside group_vars/', async () => {
    const plan = await planSetup({
      answers,
      inventoryPath: inventory,
      secretManifestPath: join(root, 'group_vars', 'all', 'tls.yaml'),
    });
    expect(plan.findings.find((f) => f.rule === 'manifest-in-vars-folder')?.severity).toBe('error');
    expect(plan.files.some((f) => f.path.endsWith('tls.yaml'))).toBe(false);
  });
});
