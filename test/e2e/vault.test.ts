/**
 * Secrets written vaulted, through the built binary, with real Ansible as the judge: what cloudgate
 * writes with a vault password, `ansible` decrypts to the answer; what `ansible-vault` made, cloudgate
 * keeps and checks. No plaintext secret appears in the file or in any output.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ansibleValue } from '../helpers/ansible.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { launchCloudgate, type Terminal } from '../helpers/tmux.js';

const run = promisify(execFile);
const PASSWORD = 'vault-pass-e2e-4821';
const TOKEN = 'cloudflare-token-e2e-vaulted-7731';
const ANSWERS = `cluster_issuer_type: acme
cluster_issuer_acme_email: ops@example.com
cluster_issuer_acme_solver: cloudflare
cluster_issuer_acme_cloudflare_api_token: ${TOKEN}
`;

let dir: string;
let inventory: string;
let passwordFile: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-e2e-vault-'));
  inventory = join(dir, 'certificates.yml');
  passwordFile = join(dir, 'vault-pass');
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function answers(text: string): Promise<string> {
  const file = join(dir, 'answers.yml');
  await writeFile(file, text);
  return file;
}

/** `ansible-vault encrypt_string` of `value` with the test password, as the `!vault |` YAML block it prints. */
async function ansibleVaulted(name: string, value: string, vaultId = passwordFile): Promise<string> {
  const { stdout } = await run('ansible-vault', ['encrypt_string', '--vault-id', vaultId, value, '--name', name], {
    env: { ...process.env, ANSIBLE_NOCOLOR: '1' },
  });
  return `${stdout.trimEnd()}\n`;
}

function output(r: CliResult): string {
  return r.stdout + r.stderr;
}

async function filesIn(folder: string): Promise<string> {
  const names = await readdir(folder);
  const texts = await Promise.all(
    names.filter((n) => n !== 'answers.yml').map((n) => readFile(join(folder, n), 'utf8')),
  );
  return texts.join('\n');
}

describe('setup with a vault password', () => {
  it('writes every secret as !vault that Ansible decrypts, no plaintext in the file or any output, and is idempotent', async () => {
    const r = await runCli([
      'setup',
      '--answers',
      await answers(ANSWERS),
      '--inventory',
      inventory,
      '--vault-password-file',
      passwordFile,
    ]);
    expect(r.code).toBe(0);
    const text = await readFile(inventory, 'utf8');
    expect(text).toMatch(/cluster_issuer_acme_cloudflare_api_token: !vault \|\n {2}\$ANSIBLE_VAULT;1\.1;AES256\n/);
    expect(text).not.toContain(TOKEN);
    expect(output(r)).not.toContain(TOKEN);
    expect((await stat(inventory)).mode & 0o777).toBe(0o600);
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(TOKEN);
    expect(await ansibleValue(inventory, 'cluster_issuer_acme_email', { vaultPasswordFile: passwordFile })).toBe(
      'ops@example.com',
    );

    const again = await runCli([
      'setup',
      '--answers',
      await answers(ANSWERS),
      '--inventory',
      inventory,
      '--vault-password-file',
      passwordFile,
    ]);
    expect(again.code).toBe(0);
    expect(await readFile(inventory, 'utf8')).toBe(text);
  });

  it('seals a plain secret already in the inventory, and a --dry-run diff shows no plaintext', async () => {
    await writeFile(inventory, ANSWERS, { mode: 0o600 });
    const dry = await runCli([
      'setup',
      '--answers',
      await answers('cluster_issuer_acme_email: pki@example.com\n'),
      '--inventory',
      inventory,
      '--vault-password-file',
      passwordFile,
      '--dry-run',
    ]);
    expect(dry.code).toBe(0);
    expect(output(dry)).not.toContain(TOKEN);
    const r = await runCli([
      'setup',
      '--answers',
      await answers('cluster_issuer_acme_email: pki@example.com\n'),
      '--inventory',
      inventory,
      '--vault-password-file',
      passwordFile,
    ]);
    expect(r.code).toBe(0);
    expect(output(r)).not.toContain(TOKEN);
    expect(r.stderr).toContain('vaulted too');
    expect(await readFile(inventory, 'utf8')).not.toContain(TOKEN);
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(TOKEN);
    // The backup of the plain version is written with the secret vaulted too: Ansible reads the old values from it.
    const backups = (await readdir(dir)).filter((name) => name.endsWith('.bak'));
    expect(backups).toHaveLength(1);
    const backup = join(dir, backups[0]);
    expect(await readFile(backup, 'utf8')).not.toContain(TOKEN);
    expect(
      await ansibleValue(backup, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(TOKEN);
    expect(await ansibleValue(backup, 'cluster_issuer_acme_email', { vaultPasswordFile: passwordFile })).toBe(
      'ops@example.com',
    );
  });

  it('seals an !unsafe secret too (answers or inventory), which Ansible reads back literally, never templated', async () => {
    const unsafe = 'new{{ lookup("pipe", "id") }}';
    const base =
      'cluster_issuer_type: acme\ncluster_issuer_acme_solver: cloudflare\ncluster_issuer_acme_email: o@example.com\n';
    await writeFile(inventory, base);
    const r = await runCli([
      'setup',
      '--answers',
      await answers(`cluster_issuer_acme_cloudflare_api_token: !unsafe '${unsafe}'\n`),
      '--inventory',
      inventory,
      '--vault-password-file',
      passwordFile,
      '--yes',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /cluster_issuer_acme_cloudflare_api_token is !unsafe: it is written vaulted and stays literal/,
    );
    const text = await readFile(inventory, 'utf8');
    expect(text).toMatch(/cluster_issuer_acme_cloudflare_api_token: !vault \|\n/);
    expect(text).not.toContain('lookup');
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(unsafe);

    // Plain !unsafe in the inventory: sealed in the file and in the backup of its previous version.
    await writeFile(inventory, `${base}cluster_issuer_acme_cloudflare_api_token: !unsafe '${unsafe}'\n`);
    for (const name of await readdir(dir)) if (name.endsWith('.bak')) await rm(join(dir, name));
    const again = await runCli([
      'setup',
      '--answers',
      await answers('cluster_issuer_acme_email: pki@example.com\n'),
      '--inventory',
      inventory,
      '--vault-password-file',
      passwordFile,
      '--yes',
    ]);
    expect(again.code).toBe(0);
    expect(await readFile(inventory, 'utf8')).not.toContain('lookup');
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(unsafe);
    const backup = join(
      dir,
      (await readdir(dir)).find((name) => name.endsWith('.bak'))!,
    );
    expect(await readFile(backup, 'utf8')).not.toContain('lookup');
    expect(
      await ansibleValue(backup, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(unsafe);
  });

  it('--vault-id LABEL@FILE writes 1.2 envelopes with the label; ANSIBLE_VAULT_PASSWORD_FILE works as the option', async () => {
    const r = await runCli([
      'setup',
      '--answers',
      await answers(ANSWERS),
      '--inventory',
      inventory,
      '--vault-id',
      `prod@${passwordFile}`,
    ]);
    expect(r.code).toBe(0);
    expect(await readFile(inventory, 'utf8')).toContain('$ANSIBLE_VAULT;1.2;AES256;prod\n');
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(TOKEN);

    const other = join(dir, 'other.yml');
    const env = await runCli(['setup', '--answers', await answers(ANSWERS), '--inventory', other], {
      env: { ANSIBLE_VAULT_PASSWORD_FILE: passwordFile },
    });
    expect(env.code).toBe(0);
    expect(await readFile(other, 'utf8')).toContain('!vault |');
    expect(
      await ansibleValue(other, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(TOKEN);
  });

  it('refuses a missing password file or a wrong password for the vaulted inventory with exit 2 or an error, writing nothing', async () => {
    const missing = await runCli([
      'setup',
      '--answers',
      await answers(ANSWERS),
      '--inventory',
      inventory,
      '--vault-password-file',
      join(dir, 'nope'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('vault password file');
    await writeFile(
      inventory,
      `cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: cloudflare\n${await ansibleVaulted('cluster_issuer_acme_cloudflare_api_token', TOKEN)}`,
    );
    const before = await readFile(inventory, 'utf8');
    const wrongFile = join(dir, 'wrong');
    await writeFile(wrongFile, 'not the password\n', { mode: 0o600 });
    const wrong = await runCli([
      'setup',
      '--answers',
      await answers('cluster_issuer_acme_email: pki@example.com\n'),
      '--inventory',
      inventory,
      '--vault-password-file',
      wrongFile,
    ]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('HMAC mismatch');
    expect(await readFile(inventory, 'utf8')).toBe(before);
  });

  it("regenerate writes the new issuer's secrets vaulted too", async () => {
    await writeFile(inventory, 'cluster_issuer_type: self-signed\n', { mode: 0o600 });
    const r = await runCli(
      [
        'regenerate',
        '--answers',
        await answers(ANSWERS),
        '--inventory',
        inventory,
        '--vault-password-file',
        passwordFile,
        '--yes',
      ],
      { env: { KUBECONFIG: join(dir, 'no-kubeconfig'), PATH: '/usr/bin:/bin' } },
    );
    expect(output(r)).not.toContain(TOKEN);
    expect(await readFile(inventory, 'utf8')).not.toContain(TOKEN);
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(TOKEN);
  });
});

describe('values vaulted by ansible-vault', () => {
  it('setup keeps a !vault answer as written without a password, and Ansible reads it', async () => {
    const r = await runCli([
      'setup',
      '--answers',
      await answers(
        `cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: cloudflare\n${await ansibleVaulted('cluster_issuer_acme_cloudflare_api_token', TOKEN)}`,
      ),
      '--inventory',
      inventory,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('not checked (vaulted)');
    expect(await readFile(inventory, 'utf8')).not.toContain(TOKEN);
    expect(
      await ansibleValue(inventory, 'cluster_issuer_acme_cloudflare_api_token', { vaultPasswordFile: passwordFile }),
    ).toBe(TOKEN);
  });

  it('doctor --only inventory: "not checked (vaulted)" without the password, checks the plaintext with it, fails on a wrong one', async () => {
    await writeFile(
      inventory,
      `cluster_issuer_type: acme\ncluster_issuer_acme_solver: http01\n${await ansibleVaulted('cluster_issuer_acme_email', 'not-an-email')}`,
    );
    const closed = await runCli(['doctor', '--only', 'inventory', '--inventory', inventory, '--json']);
    expect(closed.code).toBe(0);
    const closedChecks = JSON.parse(closed.stdout).checks as { id: string; status: string; message: string }[];
    expect(closedChecks).toEqual([
      expect.objectContaining({
        id: 'inventory.vaulted.cluster_issuer_acme_email',
        status: 'ok',
        message: expect.stringContaining('not checked (vaulted)'),
      }),
    ]);

    const opened = await runCli([
      'doctor',
      '--only',
      'inventory',
      '--inventory',
      inventory,
      '--json',
      '--vault-password-file',
      passwordFile,
    ]);
    expect(opened.code).toBe(1);
    const openedChecks = JSON.parse(opened.stdout).checks as {
      id: string;
      status: string;
      details: { variable?: string };
    }[];
    expect(openedChecks.find((c) => c.details.variable === 'cluster_issuer_acme_email')?.status).toBe('fail');
    expect(output(opened)).not.toContain('not-an-email');

    const wrongFile = join(dir, 'wrong');
    await writeFile(wrongFile, 'not the password\n', { mode: 0o600 });
    const wrong = await runCli([
      'doctor',
      '--only',
      'inventory',
      '--inventory',
      inventory,
      '--json',
      '--vault-password-file',
      wrongFile,
    ]);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout).checks).toEqual([
      expect.objectContaining({ id: 'inventory.vault-decrypt.cluster_issuer_acme_email', status: 'fail' }),
    ]);
  });

  it('doctor with the password finds a clean vaulted inventory valid, and never prints the secret', async () => {
    await writeFile(
      inventory,
      `cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: cloudflare\n${await ansibleVaulted('cluster_issuer_acme_cloudflare_api_token', TOKEN)}`,
    );
    const r = await runCli([
      'doctor',
      '--only',
      'inventory',
      '--inventory',
      inventory,
      '--verbose',
      '--vault-password-file',
      passwordFile,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no problems');
    expect(output(r)).not.toContain(TOKEN);
    expect(await filesIn(dir)).not.toContain(TOKEN);
  });
});

/** Sends the keys and waits until the screen changes (the key was handled). */
async function press(term: Terminal, ...keys: string[]): Promise<void> {
  await term.press(...keys);
}

/** Types `text` once the prompt is on screen, then Enter. */
async function typeLine(term: Terminal, text: string): Promise<void> {
  term.send('-l', text);
  await term.waitFor(text);
  await press(term, 'Enter');
}

describe('the walkthrough offers the vault (tmux)', () => {
  let term: Terminal | undefined;
  afterEach(() => term?.kill());

  it('asks for the password file when the inventory holds vaulted values, refuses a wrong one, then keeps the vaulted secret', async () => {
    await writeFile(
      inventory,
      `cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: cloudflare\n${await ansibleVaulted('cluster_issuer_acme_cloudflare_api_token', TOKEN)}`,
      { mode: 0o600 },
    );
    const before = await readFile(inventory, 'utf8');
    await writeFile(join(dir, 'wrong'), 'not the password\n', { mode: 0o600 });
    term = launchCloudgate(['setup', '--plain', '--inventory', inventory], { cwd: dir });
    const offer = await term.waitFor('in Ansible Vault');
    expect(offer).toContain('cluster_issuer_acme_cloudflare_api_token');
    await typeLine(term, 'wrong');
    await term.waitFor('HMAC mismatch');
    // A refused answer is asked again on a fresh line.
    await typeLine(term, 'vault-pass');
    // Every question keeps the inventory's answer, the vaulted token included (it was decrypted).
    for (let i = 0; i < 12; i++) {
      const screen = await term.waitFor(/\? .*$|Write these files\?/m);
      if (screen.includes('Write these files?')) break;
      await press(term, 'Enter');
    }
    const review = await term.waitFor('Write these files?');
    expect(review).not.toContain(TOKEN);
    term.send('Enter');
    const end = await term.waitFor(/EXIT=\d+/);
    expect(end).toContain('EXIT=0');
    expect(end).not.toContain(TOKEN);
    expect(await readFile(inventory, 'utf8')).toBe(before);
  });
});

describe('the Ink walkthrough after the vault offer (tmux)', () => {
  let term: Terminal | undefined;
  afterEach(() => term?.kill());

  it('takes the password file, then runs the full-screen walkthrough with the decrypted values', async () => {
    await writeFile(
      inventory,
      `cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_acme_solver: cloudflare\n${await ansibleVaulted('cluster_issuer_acme_cloudflare_api_token', TOKEN)}`,
      { mode: 0o600 },
    );
    const before = await readFile(inventory, 'utf8');
    term = launchCloudgate(['setup', '--inventory', inventory], { cwd: dir });
    await term.waitFor('in Ansible Vault');
    await typeLine(term, 'vault-pass');
    await term.waitFor('Certificate type');
    // One Enter per question, each only once the previous one moved on (keys sent faster race the redraw).
    for (let i = 0; i < 12; i++) {
      const screen = await term.waitFor(/question \d+ of|Enter finish \(nothing to write\)/);
      if (screen.includes('Enter finish (nothing to write)')) break;
      const question = /question (\d+) of/.exec(screen)![1];
      term.send('Enter');
      await term.waitFor(new RegExp(`question (?!${question} of)\\d+ of|Enter finish \\(nothing to write\\)`));
    }
    // The values did not change: nothing to write, and Enter says so.
    const review = await term.waitFor('Enter finish (nothing to write)');
    expect(review).not.toContain(TOKEN);
    term.send('Enter');
    const end = await term.waitFor(/EXIT=\d+/);
    expect(end).toContain('EXIT=0');
    expect(await readFile(inventory, 'utf8')).toBe(before);
  });
});
