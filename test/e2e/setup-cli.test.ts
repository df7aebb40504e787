import { execFileSync, spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCA } from '../helpers/pki.js';
import { hasKubectl, needsKubectl } from '../helpers/has-kubectl.js';
import { requireTool } from '../helpers/tools.js';
import { waitUntil } from '../helpers/wait.js';
import { runCli } from '../helpers/cli.js';
import { KubeState, namespace, startKubeApi } from '../servers/kube-api.js';

const BIN = new URL('../../bin/cloudgate.js', import.meta.url).pathname;
const FIXTURES = new URL('../fixtures/inventory/', import.meta.url).pathname;
const TSIG = 'c2VjcmV0LXRzaWcta2V5LXZhbHVl';
const TOKEN = 'cloudflare-token-e2e-98765';

function cloudgate(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, CI: '1' },
    input: '',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-e2e-setup-'));
  inventory = join(dir, 'certificates.yml');
  await copyFile(join(FIXTURES, 'realistic.yml'), inventory);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const answers = async (text: string) => {
  await writeFile(join(dir, 'answers.yml'), text);
  return join(dir, 'answers.yml');
};

describe('cloudgate setup (built binary)', () => {
  it('a file that cannot be written exits 1 (not 2: the input was fine), saying what failed, nothing written', async () => {
    // sysfs lets nobody create a file, root included.
    const target = '/sys/cloudgate-e2e-certificates.yml';
    const r = cloudgate(
      [
        'setup',
        '--answers',
        await answers('cluster_issuer_acme_email: ops@example.com\n'),
        '--inventory',
        target,
        '--yes',
      ],
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nothing was written/i);
    expect(r.stderr).not.toContain('unexpected error');
  });

  it('without a terminal and without --answers exits 2 naming --answers, writing nothing', async () => {
    const r = cloudgate(['setup', '--inventory', inventory], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--answers');
    expect(r.stdout).toBe('');
    expect(await readdir(dir)).toEqual(['certificates.yml']);
  });

  it('--dry-run prints only the unified diff on stdout, masks secrets and writes nothing', async () => {
    const file = await answers(
      `cluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_cloudflare_api_token: ${TOKEN}\n`,
    );
    const before = await readFile(inventory, 'utf8');
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory, '--dry-run'], dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Index: .*\n=+\n--- .*\n\+\+\+ .*\n@@ /);
    expect(r.stdout).toContain('-cluster_issuer_acme_rfc2136_nameserver: ns1.example.com:53');
    expect(r.stdout).toContain('+cluster_issuer_acme_solver: cloudflare');
    for (const out of [r.stdout, r.stderr]) {
      expect(out).not.toContain(TOKEN);
      expect(out).not.toContain(TSIG);
    }
    expect(r.stderr).toContain('Remove: cluster_issuer_acme_rfc2136_tsig_secret_key');
    expect(await readFile(inventory, 'utf8')).toBe(before);
    expect((await readdir(dir)).sort()).toEqual(['answers.yml', 'certificates.yml']);
  });

  it('writes the inventory (mode 0600, backup kept) and prints nothing on stdout', async () => {
    const file = await answers(
      `cluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_cloudflare_api_token: ${TOKEN}\n`,
    );
    const before = await readFile(inventory, 'utf8');
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory, '--yes'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const after = await readFile(inventory, 'utf8');
    expect(after).toContain(`cluster_issuer_acme_cloudflare_api_token: ${TOKEN}`);
    expect(after).not.toContain('rfc2136');
    expect(after).toContain('kube_vip_address: 10.10.0.5   # the API VIP');
    expect((await stat(inventory)).mode & 0o777).toBe(0o600);
    const backup = (await readdir(dir)).find((f) => f.endsWith('.bak'))!;
    expect(await readFile(join(dir, backup), 'utf8')).toBe(before);
    // cloudgate is not on this run's PATH: the next steps name it by the path that works.
    expect(r.stderr).toMatch(
      new RegExp(`(^|\\s)(cloudgate|${BIN.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}) doctor --inventory`, 'm'),
    );
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('refuses answers with an error: exit 2, the variable named, the inventory untouched', async () => {
    const file = await answers('cluster_issuer_type: venafi\ncluster_issuer_venafi_zone: Z\n');
    const before = await readFile(inventory, 'utf8');
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cluster_issuer_venafi_tpp_url');
    expect(r.stderr).toContain('Nothing was written');
    expect(await readFile(inventory, 'utf8')).toBe(before);
    expect(cloudgate(['setup', '--answers', file, '--inventory', inventory, '--dry-run'], dir).code).toBe(2);
  });

  it('rejects an unknown answers key with a suggestion, and a broken inventory naming the file', async () => {
    const typo = await answers('cluster_issuer_acme_emial: ops@example.com\n');
    const r = cloudgate(['setup', '--answers', typo, '--inventory', inventory], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Did you mean cluster_issuer_acme_email?');

    await writeFile(inventory, 'cluster_issuer_type: [acme\n');
    const ok = await answers('cluster_issuer_acme_email: ops@example.com\n');
    const broken = cloudgate(['setup', '--answers', ok, '--inventory', inventory], dir);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`The inventory ${inventory} is not valid YAML`);
    expect(await readFile(inventory, 'utf8')).toBe('cluster_issuer_type: [acme\n');
  });

  it('supplied wildcard: writes the inventory and a 0600 TLS Secret manifest, the key never printed', async () => {
    const ca = createTestCA('e2e supplied CA');
    const leaf = ca.issue(['*.cloud.example.com']);
    await writeFile(join(dir, 'wildcard.pem'), leaf.cert + ca.cert);
    await writeFile(join(dir, 'wildcard.key'), leaf.key);
    const file = await answers(
      'openstack_helm_ingress_wildcard_domain: cloud.example.com\nwildcard_certificate_file: wildcard.pem\nwildcard_key_file: wildcard.key\nnamespace: [openstack, monitoring]\n',
    );
    const manifest = join(dir, 'out', 'wildcard.secret.yaml');
    const dry = cloudgate(
      ['setup', '--answers', file, '--inventory', inventory, '--secret-manifest', manifest, '--dry-run'],
      dir,
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+cluster_issuer_type: none');
    expect(dry.stdout).toContain('+openstack_helm_ingress_secret_name: wildcard-certs');
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory, '--secret-manifest', manifest], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect((await stat(manifest)).mode & 0o777).toBe(0o600);
    expect((await readFile(manifest, 'utf8')).match(/namespace: (openstack|monitoring)/g)).toHaveLength(2);
    expect(r.stderr).toContain(`kubectl apply -f ${manifest}`);
    expect(r.stderr).toMatch(/issuer changes from acme to none/);
    const keyLine = leaf.key.split('\n')[1];
    for (const out of [dry.stdout, dry.stderr, r.stdout, r.stderr]) {
      expect(out).not.toContain(keyLine);
      expect(out).not.toContain(Buffer.from(leaf.key).toString('base64'));
    }
  });

  it('--dry-run shows, on stderr, what changes in the cluster: the rendered objects before and after, secrets masked', async () => {
    const file = await answers(
      `cluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_cloudflare_api_token: ${TOKEN}\n`,
    );
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory, '--dry-run'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('+ Secret cert-manager/cloudflare-api-token (new)');
    expect(r.stderr).toContain('- Secret cert-manager/cert-manager-issuer-tsig-secret-key (no longer made');
    expect(r.stderr).toContain('~ ClusterIssuer atmosphere: spec.acme.solvers');
    expect(r.stderr).toContain('+++ ClusterIssuer atmosphere (after)');
    expect(r.stderr).toMatch(/^\+ {10}cloudflare:$/m);
    expect(r.stderr).toContain('api-token: "********"');
    expect(r.stdout).not.toContain('ClusterIssuer');
    for (const out of [r.stdout, r.stderr]) {
      expect(out).not.toContain(TOKEN);
      expect(out).not.toContain(TSIG);
    }
  });

  it('a CA key that does not match its certificate names the files the answers read them from', async () => {
    const ca = createTestCA('e2e issuing CA');
    const other = createTestCA('e2e other CA');
    await mkdir(join(dir, 'pki'));
    await writeFile(join(dir, 'pki', 'ca.pem'), ca.cert);
    await writeFile(join(dir, 'pki', 'int.key'), other.key);
    const file = await answers(
      'cluster_issuer_type: ca\ncluster_issuer_ca_certificate: file:pki/ca.pem\ncluster_issuer_ca_private_key: file:pki/int.key\n',
    );
    const before = await readFile(inventory, 'utf8');
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory, '--yes'], dir);
    expect(r.code).toBe(2);
    const line = r.stderr.split('\n').find((l) => l.startsWith('x ') && l.includes('does not belong'));
    expect(line, r.stderr).toContain(`${join(dir, 'pki', 'int.key')} (cluster_issuer_ca_private_key)`);
    expect(line).toContain(`${join(dir, 'pki', 'ca.pem')} (cluster_issuer_ca_certificate)`);
    expect(r.stderr).not.toContain(other.key.split('\n')[1]);
    expect(await readFile(inventory, 'utf8')).toBe(before);
  });

  it('contradictory answers exit 2 naming both keys, nothing written', async () => {
    const file = await answers(
      'openstack_helm_ingress_secret_name: wildcard-certs\ncluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n',
    );
    const before = await readFile(inventory, 'utf8');
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory], dir);
    expect(r.code).toBe(2);
    const line = r.stderr
      .split('\n')
      .find((l) => l.includes('openstack_helm_ingress_secret_name') && l.includes('cluster_issuer_type'));
    expect(line, r.stderr).toBeDefined();
    expect(await readFile(inventory, 'utf8')).toBe(before);
  });

  it('an empty wildcard domain in the answers exits 2 instead of giving individual certificates', async () => {
    const file = await answers('openstack_helm_ingress_wildcard_domain: ""\n');
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory, '--dry-run'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('openstack_helm_ingress_wildcard_domain is empty');
  });

  it('route53 without a region fails in setup (the deployment would stop on the undefined variable)', async () => {
    const file = await answers(
      [
        'cluster_issuer_acme_solver: route53',
        'cluster_issuer_acme_route53_auth: static',
        'cluster_issuer_acme_route53_hosted_zone_id: Z0123456789',
        'cluster_issuer_acme_route53_access_key_id: AKIAEXAMPLE',
        'cluster_issuer_acme_route53_secret_access_key: s3cr3t-access-key-e2e',
        '',
      ].join('\n'),
    );
    const before = await readFile(inventory, 'utf8');
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /cluster_issuer_acme_route53_region is not set.*'cluster_issuer_acme_route53_region' is undefined/,
    );
    expect(r.stderr).not.toContain('s3cr3t-access-key-e2e');
    expect(await readFile(inventory, 'utf8')).toBe(before);
  });

  it('creates a new inventory at the default path relative to the working directory', async () => {
    const file = await answers('cluster_issuer_acme_email: ops@example.com\n');
    const r = cloudgate(['setup', '--answers', file], dir);
    expect(r.code, r.stderr).toBe(0);
    const text = await readFile(join(dir, 'inventory/group_vars/all/certificates.yml'), 'utf8');
    expect(text).toContain('cluster_issuer_acme_email: ops@example.com');
  });
});

describe('the review shows what changes in the cluster, in every run', () => {
  it('without --dry-run too: the inventory diff, then the objects and their diff on stderr (secrets masked)', async () => {
    const file = await answers(
      `cluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_cloudflare_api_token: ${TOKEN}\n`,
    );
    const r = cloudgate(['setup', '--answers', file, '--inventory', inventory, '--yes'], dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    const at = (text: string) => r.stderr.indexOf(text);
    expect(at('+cluster_issuer_acme_solver: cloudflare')).toBeGreaterThan(-1);
    expect(at('~ ClusterIssuer atmosphere: spec.acme.solvers')).toBeGreaterThan(
      at('+cluster_issuer_acme_solver: cloudflare'),
    );
    expect(at('+++ ClusterIssuer atmosphere (after)')).toBeGreaterThan(
      at('~ ClusterIssuer atmosphere: spec.acme.solvers'),
    );
    expect(r.stderr).toContain('api-token: "********"');
    expect(r.stderr).not.toContain(TOKEN);
    expect(r.stderr).not.toContain(TSIG);
  });
});

describe.skipIf(!hasKubectl)(`setup --answers --apply when nothing changed${needsKubectl}`, () => {
  it('applies the unchanged manifest again (a rerun after a failed apply), naming each namespace', async () => {
    const ca = createTestCA('e2e apply CA');
    const leaf = ca.issue(['*.cloud.example.com']);
    await writeFile(join(dir, 'wildcard.pem'), leaf.cert + ca.cert);
    await writeFile(join(dir, 'wildcard.key'), leaf.key);
    const file = await answers(
      'wildcard_certificate_file: wildcard.pem\nwildcard_key_file: wildcard.key\nnamespace: [openstack, monitoring]\n',
    );
    const state = new KubeState().add(namespace('openstack'), namespace('monitoring'));
    state.forbid = ({ method }) => method !== 'GET';
    const api = await startKubeApi(state);
    try {
      const args = ['setup', '--answers', file, '--inventory', inventory, '--yes', '--apply'];
      const failed = await runCli(args, { cwd: dir, env: api.env });
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr).toMatch(/kubectl apply -f .*failed/);
      expect(state.get('Secret', 'wildcard-certs', 'openstack')).toBeUndefined();

      state.forbid = undefined;
      const again = await runCli(args, { cwd: dir, env: api.env });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('Nothing to write');
      expect(again.stderr).toMatch(
        /secret\/wildcard-certs created in openstack, secret\/wildcard-certs created in monitoring/,
      );
      expect(again.stderr).not.toMatch(/^ {2}kubectl apply -f/m);
      expect(state.get('Secret', 'wildcard-certs', 'openstack')).toBeDefined();
      expect(state.get('Secret', 'wildcard-certs', 'monitoring')).toBeDefined();
    } finally {
      await api.stop();
    }
  });
});

describe('cloudgate schema (built binary)', () => {
  it('prints only the JSON Schema on stdout', () => {
    const r = cloudgate(['schema'], dir);
    expect(r.code).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(schema.properties.cluster_issuer_type.enum).toEqual(['acme', 'venafi', 'ca', 'self-signed', 'none']);
  });
});

// On a real terminal (tmux) `setup --answers` without --yes asks once before writing; "no" cancels (exit 130).
const hasTmux = requireTool('tmux', 'tmux');

let session: string;

const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });

const paneText = () => tmux('capture-pane', '-p', '-t', session);

async function waitFor(path: string, timeoutMs = 20_000): Promise<string> {
  // The shell creates the file, then writes one line: complete once the line ends.
  const complete = async () => {
    const text = await readFile(path, 'utf8').catch(() => undefined);
    return text?.endsWith('\n') && text;
  };
  const text = await waitUntil(path, complete, { timeoutMs, intervalMs: 50, lastSeen: paneText });
  return text.trim();
}

async function waitForScreen(text: string, timeoutMs = 20_000): Promise<void> {
  await waitUntil(`"${text}" on the screen`, () => paneText().includes(text), {
    timeoutMs,
    intervalMs: 50,
    lastSeen: paneText,
  });
}

function start() {
  const command = `env -u CI ${process.execPath} ${BIN} setup --answers answers.yml --inventory inv.yml; echo $? > rc`;
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '50', '-c', dir, 'sh', '-c', `${command}; sleep 30`);
}

describe.skipIf(!hasTmux)('cloudgate setup --answers on a terminal (tmux)', () => {
  beforeEach(async () => {
    session = `cloudgate-confirm-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    await copyFile(join(FIXTURES, 'realistic.yml'), join(dir, 'inv.yml'));
    await writeFile(join(dir, 'answers.yml'), 'cluster_issuer_acme_email: pki@example.com\n');
  });
  afterEach(() => {
    spawnSync('tmux', ['kill-session', '-t', session]);
  });

  it('asks before writing; "n" cancels with exit 130 and leaves the inventory as it was', async () => {
    const before = await readFile(join(dir, 'inv.yml'), 'utf8');
    start();
    await waitForScreen('Write these files? [y/N]');
    tmux('send-keys', '-t', session, 'n', 'Enter');
    expect(await waitFor(join(dir, 'rc'))).toBe('130');
    expect(await readFile(join(dir, 'inv.yml'), 'utf8')).toBe(before);
  });

  it('"y" writes the inventory', async () => {
    start();
    await waitForScreen('Write these files? [y/N]');
    tmux('send-keys', '-t', session, 'y', 'Enter');
    expect(await waitFor(join(dir, 'rc'))).toBe('0');
    expect(await readFile(join(dir, 'inv.yml'), 'utf8')).toContain(
      'cluster_issuer_acme_email: pki@example.com  # shared mailbox',
    );
  });
});
