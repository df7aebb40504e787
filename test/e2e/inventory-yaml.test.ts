// What setup writes, judged by real Ansible: tags kept, PEM bundles intact, anchors and document ends
// handled, no YAML library warning (with its quoted source line) on the output.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ansibleValue } from '../helpers/ansible.js';
import { runCli } from '../helpers/cli.js';
import { createTestCA } from '../helpers/pki.js';

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-e2e-yaml-'));
  inventory = join(dir, 'certificates.yml');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const write = async (name: string, text: string) => {
  await writeFile(join(dir, name), text);
  return join(dir, name);
};

const CLOUDFLARE = `cluster_issuer_type: acme
cluster_issuer_acme_email: ops@example.com
cluster_issuer_acme_solver: cloudflare
`;

const setup = (answers: string, extra: string[] = []) =>
  runCli(['setup', '--answers', answers, '--inventory', inventory, '--yes', ...extra], { cwd: dir });

/** A value encrypted by the real ansible-vault, as `!vault |` block text. */
function vaulted(secret: string, passwordFile: string, name: string): string {
  return execFileSync(
    'ansible-vault',
    ['encrypt_string', '--vault-password-file', passwordFile, secret, '--name', name],
    { encoding: 'utf8' },
  );
}

describe('YAML library warnings never reach the output', () => {
  it('a secret under an unknown tag in --answers: exit 2 naming the line, the secret nowhere', async () => {
    const answers = await write(
      'answers.yml',
      `${CLOUDFLARE}cluster_issuer_acme_cloudflare_api_token: !secret 'tagged-secret-4711-xyz'\n`,
    );
    const r = await setup(answers);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain('tagged-secret-4711-xyz');
    expect(r.stderr).not.toMatch(/\(node:\d+\)|Warning/);
    expect(r.stderr).toContain('line 4');
    await expect(readFile(inventory)).rejects.toThrow();
  });

  it('a secret under a tag in --config: exit 2, the secret nowhere, even with --json', async () => {
    const config = await write('config.yml', "signin:\n  client_secret: !vault 'config-secret-0815-abc'\n");
    const r = await runCli(['doctor', '--only', 'signin', '--config', config, '--json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain('config-secret-0815-abc');
    expect(r.stderr).not.toMatch(/\(node:\d+\)|Warning/);
    // doctor writes nothing: the refusal names the tag and says what the file takes, not "nothing was written".
    expect(r.stderr).toContain('has a tag (!vault) (line 2');
    expect(r.stderr).not.toContain('nothing was written');
  });

  it('an unknown tag in the inventory is an inventory.yaml-tag failure, its value not quoted', async () => {
    await writeFile(
      inventory,
      `${CLOUDFLARE}cluster_issuer_acme_cloudflare_api_token: !secret 'inv-secret-1234-qqq'\n`,
    );
    const r = await runCli(['doctor', '--only', 'inventory', '--inventory', inventory, '--json'], { cwd: dir });
    expect(r.stdout + r.stderr).not.toContain('inv-secret-1234-qqq');
    expect(r.stderr).not.toMatch(/\(node:\d+\)|Warning/);
    const checks = JSON.parse(r.stdout).checks as { id: string; status: string }[];
    expect(checks.find((c) => c.id === 'inventory.yaml-tag')?.status).toBe('fail');
  });
});

describe('Ansible reads back what setup wrote', () => {
  it('!unsafe answers stay unsafe: Ansible prints the literal text, it runs nothing', async () => {
    const token = 'tok{{ lookup("pipe","id") }}';
    const answers = await write(
      'answers.yml',
      `${CLOUDFLARE}cluster_issuer_acme_cloudflare_api_token: !unsafe '${token}'\n`,
    );
    const r = await setup(answers);
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(inventory, 'utf8')).toContain('!unsafe');
    expect(await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token')).toBe(token);
  });

  it('a !vault answer is written vaulted; an existing !vault block stays byte for byte and decrypts', async () => {
    const password = await write('vault-pass', 'vault-password-e2e\n');
    const block = vaulted('vaulted-token-e2e-5150', password, 'cluster_issuer_acme_cloudflare_api_token');
    await writeFile(inventory, `${CLOUDFLARE}${block}`);
    const answers = await write('answers.yml', 'cluster_issuer_acme_email: pki@example.com\n');
    const r = await setup(answers);
    expect(r.code, r.stderr).toBe(0);
    const written = await readFile(inventory, 'utf8');
    expect(written).toContain(block.trimEnd());
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: password }),
    ).toBe('vaulted-token-e2e-5150');
    expect(await ansibleValue(inventory, 'cluster_issuer_acme_email', { vaultPasswordFile: password })).toBe(
      'pki@example.com',
    );

    // The same block given as an answer goes in vaulted too.
    await writeFile(inventory, '');
    const vaultAnswers = await write('answers2.yml', `${CLOUDFLARE}${block}`);
    expect((await setup(vaultAnswers)).code).toBe(0);
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: password }),
    ).toBe('vaulted-token-e2e-5150');

    const doctor = await runCli(['doctor', '--only', 'inventory', '--inventory', inventory, '--json'], { cwd: dir });
    const checks = JSON.parse(doctor.stdout).checks as { id: string; status: string; message: string }[];
    // One finding per vaulted value, the vault's own (it says how to give the password).
    expect(checks.filter((c) => /not checked/.test(c.message))).toEqual([
      expect.objectContaining({ id: 'inventory.vaulted.cluster_issuer_acme_cloudflare_api_token', status: 'ok' }),
    ]);
    expect(
      checks.find((c) => c.id === 'inventory.vaulted.cluster_issuer_acme_cloudflare_api_token')?.message,
    ).toContain('vaulted');
  });

  it('PEM bundles given as file: are written so that Ansible sees the same text', async () => {
    const root = createTestCA('e2e yaml root');
    const intermediate = root.issue([], { ca: true, cn: 'e2e yaml intermediate' });
    // forge writes CRLF line ends; setup writes PEM with LF, which is what Ansible must see.
    const bundle = (intermediate.cert + root.cert).replace(/\r\n/g, '\n');
    await write('ca.pem', intermediate.cert + root.cert);
    await write('ca.key', intermediate.key);
    const answers = await write(
      'answers.yml',
      'cluster_issuer_type: ca\ncluster_issuer_ca_certificate: file:ca.pem\ncluster_issuer_ca_private_key: file:ca.key\n',
    );
    const r = await setup(answers);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await ansibleValue(inventory, 'cluster_issuer_ca_certificate')).toBe(bundle);
    expect(await ansibleValue(inventory, 'cluster_issuer_ca_private_key')).toBe(
      intermediate.key.replace(/\r\n/g, '\n'),
    );
  });

  it('removing a key whose anchor is used elsewhere writes its value at the alias', async () => {
    await writeFile(
      inventory,
      `${CLOUDFLARE}cluster_issuer_acme_cloudflare_api_token: &tok anchored-token-77\nmy_app:\n  token: *tok\nmy_app_token: *tok\n`,
    );
    const answers = await write('answers.yml', 'cluster_issuer_acme_solver: http01\n');
    const r = await setup(answers);
    expect(r.code, r.stderr).toBe(0);
    const written = await readFile(inventory, 'utf8');
    expect(written).not.toContain('cluster_issuer_acme_cloudflare_api_token');
    expect(await ansibleValue(inventory, 'my_app_token')).toBe('anchored-token-77');
    expect(await ansibleValue(inventory, 'my_app')).toEqual({ token: 'anchored-token-77' });
    expect(await ansibleValue(inventory, 'cluster_issuer_acme_solver')).toBe('http01');
  });

  it('an inventory ending in "..." gets new keys before the document end', async () => {
    await writeFile(inventory, '---\nkube_vip_address: 10.0.0.5\n...\n');
    const answers = await write('answers.yml', CLOUDFLARE.replace('cloudflare', 'http01'));
    const r = await setup(answers);
    expect(r.code, r.stderr).toBe(0);
    const written = await readFile(inventory, 'utf8');
    expect(written.trimEnd().endsWith('...')).toBe(true);
    expect(await ansibleValue(inventory, 'cluster_issuer_acme_email')).toBe('ops@example.com');
    expect(await ansibleValue(inventory, 'kube_vip_address')).toBe('10.0.0.5');
  });
});

describe('types and sizes', () => {
  it('a date as cluster_issuer_type is the text Ansible makes of it, which no issuer type is: nothing written', async () => {
    const answers = await write('answers.yml', 'cluster_issuer_type: 2024-01-01\n');
    const r = await setup(answers);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toMatch(/cluster_issuer_type is "2024-01-01", which is not one of:/);
    await expect(readFile(inventory)).rejects.toThrow();
  });

  it('a large integer keeps every digit', async () => {
    const answers = await write(
      'answers.yml',
      `${CLOUDFLARE}cluster_issuer_acme_cloudflare_api_token: 12345678901234567890\n`,
    );
    const r = await setup(answers);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(String(await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token'))).toBe(
      '12345678901234567890',
    );
  });

  it('refuses an answer value over 1 MiB and an answers file over 4 MiB', async () => {
    const big = await write(
      'answers.yml',
      `cluster_issuer_acme_email: "${'a'.repeat(1024 * 1024 + 10)}@example.com"\n`,
    );
    const r = await setup(big);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cluster_issuer_acme_email');
    expect(r.stderr).toContain('1 MiB');
    const huge = await write('huge.yml', `# ${'x'.repeat(5 * 1024 * 1024)}\n`);
    const h = await setup(huge);
    expect(h.code).toBe(2);
    expect(h.stderr).toContain('4 MiB');
  });
});
