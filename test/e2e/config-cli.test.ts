/**
 * `cloudgate config` and the bare `cloudgate doctor` that uses it: the saved settings, what a run finds
 * on its own (OS_CLOUD, ansible.cfg's inventory, kubectl's current context), and the exit 2 that says
 * how to start when nothing names anything to check. Each test has its own HOME and settings folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// The operator's own variables must not reach these runs.
const BLANK = Object.fromEntries(
  Object.keys(process.env)
    .filter((k) => /^(OS_|CLOUDGATE_|ANSIBLE_|KUBECONFIG$|XDG_CONFIG)/.test(k))
    .map((k) => [k, '']),
);

function world() {
  const home = mkdtempSync(join(tmpdir(), 'cg-config-'));
  const work = join(home, 'work');
  mkdirSync(work);
  const env = { ...BLANK, HOME: home, XDG_CONFIG_HOME: join(home, 'xdg'), KUBECONFIG: join(home, 'no-kubeconfig') };
  const cli = (args: string[], extra: Record<string, string> = {}, cwd = work) =>
    runCli(args, { env: { ...env, ...extra }, cwd });
  return { home, work, cli };
}

/** An inventory folder whose certificate variables the inventory group checks offline. */
function inventory(at: string): string {
  mkdirSync(join(at, 'group_vars', 'all'), { recursive: true });
  // The platform's play runs on the controllers group.
  writeFileSync(join(at, 'hosts.yml'), 'all:\n  children:\n    controllers:\n      hosts:\n        ctl1: {}\n');
  writeFileSync(
    join(at, 'group_vars', 'all', 'certificates.yml'),
    'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n',
  );
  return at;
}

describe('cloudgate config set|get|list|unset', () => {
  it('keeps a value in $XDG_CONFIG_HOME/cloudgate/config.yml (mode 0600), a path made absolute with ~ expanded', async () => {
    const { home, cli } = world();
    inventory(join(home, 'cloud', 'inventory'));
    const set = await cli(['config', 'set', 'inventory', '~/cloud/inventory']);
    expect(set.code, set.stderr).toBe(0);
    const file = join(home, 'xdg', 'cloudgate', 'config.yml');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain(`inventory: "${join(home, 'cloud', 'inventory')}"`);
    expect((await cli(['config', 'get', 'inventory'])).stdout).toBe(`${join(home, 'cloud', 'inventory')}\n`);
    expect((await cli(['config', 'list'])).stdout).toBe(
      `inventory=${join(home, 'cloud', 'inventory')}\ncloud=\ncontext=\nca_file=\n`,
    );
    expect((await cli(['config', 'unset', 'inventory'])).code).toBe(0);
    const after = await cli(['config', 'get', 'inventory']);
    expect([after.code, after.stdout]).toEqual([0, '']);
  });

  it('refuses an unknown key with the closest one, and a value the files here prove wrong', async () => {
    const { home, work, cli } = world();
    const key = await cli(['config', 'set', 'inventroy', 'x']);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('Did you mean "cloudgate config set inventory"?');
    writeFileSync(join(work, 'clouds.yaml'), 'clouds:\n  prod-east: {}\n');
    const cloud = await cli(['config', 'set', 'cloud', 'prod-eats']);
    expect(cloud.code).toBe(2);
    expect(cloud.stderr).toContain('Did you mean "cloudgate config set cloud prod-east"?');
    writeFileSync(join(home, 'not-a-ca.pem'), 'hello\n');
    const ca = await cli(['config', 'set', 'ca_file', join(home, 'not-a-ca.pem')]);
    expect(ca.code).toBe(2);
    expect(ca.stderr).toContain('holds no PEM certificate');
    expect((await cli(['config', 'list'])).stdout).toBe('inventory=\ncloud=\ncontext=\nca_file=\n');
    expect((await cli(['config', 'frob'])).stderr).toContain(
      'The action of cloudgate config "frob" is not one of: set, get, unset, list.',
    );
  });
});

describe('a bare cloudgate doctor', () => {
  it('with nothing to check: says where it looked and how to start, and exits 2', async () => {
    const { cli } = world();
    const r = await cli(['doctor']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Nothing to check: no inventory');
    expect(r.stderr).toContain('cloudgate config set inventory ~/cloud/inventory');
    expect(r.stdout).toBe('');
    // A group asked for by name still reports why it checked nothing, as before.
    expect((await cli(['doctor', '--only', 'inventory'])).code).toBe(0);
  });

  it('uses the saved inventory and says so on stderr', async () => {
    const { home, cli } = world();
    const inv = inventory(join(home, 'cloud', 'inventory'));
    await cli(['config', 'set', 'inventory', inv]);
    const r = await cli(['doctor', '--only', 'inventory', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `Inventory: ${inv} (from saved settings ${join(home, 'xdg', 'cloudgate', 'config.yml')}).`,
    );
    expect(JSON.parse(r.stdout).summary.ok).toBeGreaterThan(0);
    // A flag wins, and is not reported as found.
    const flagged = await cli(['doctor', '--only', 'inventory', '--inventory', inv]);
    expect(flagged.stderr).not.toContain('Inventory:');
  });

  it("finds the inventory ansible.cfg names, kubectl's current context and OS_CLOUD", async () => {
    const { home, work, cli } = world();
    inventory(join(work, 'inventory'));
    writeFileSync(join(work, 'ansible.cfg'), '[defaults]\ninventory = inventory/hosts.yml\n');
    writeFileSync(
      join(home, 'kubeconfig'),
      'apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts:\n- name: prod\n  context: {cluster: prod, user: admin}\nclusters: []\nusers: []\n',
    );
    writeFileSync(join(work, 'clouds.yaml'), 'clouds:\n  edge:\n    auth:\n      auth_url: https://127.0.0.1:9/v3\n');
    const r = await cli(['doctor', '--only', 'inventory,kube'], {
      KUBECONFIG: join(home, 'kubeconfig'),
      OS_CLOUD: 'edge',
    });
    expect(r.stderr).toContain(
      `Inventory: ${join(work, 'inventory')} (from ansible.cfg ${join(work, 'ansible.cfg')}).`,
    );
    expect(r.stderr).toContain('Kube context: prod (from the current context of');
    expect(r.stderr).toContain('clouds.yaml cloud: edge (from environment OS_CLOUD).');
    // A run that does not ask the cluster does not read the kubeconfig for it.
    const inventoryOnly = await cli(['doctor', '--only', 'inventory'], { KUBECONFIG: join(home, 'kubeconfig') });
    expect(inventoryOnly.stderr).not.toContain('Kube context');
  });
});
