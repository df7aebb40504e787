/**
 * The walkthrough fixes in place what used to send the operator to a rerun: a TSIG key file at the
 * secret question, a chain in the wrong order at the certificate question, the vault before secrets
 * are written in plain text; and file questions complete paths with Tab. Through the real plan.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../../../src/core/run-context.js';
import { openSession } from '../../../../../src/core/setup/session.js';
import { SetupApp, type SetupResult } from '../../../../../src/ui/ink/setup/SetupApp.js';
import { KEY, renderInk, type InkDriver } from '../../../../helpers/ink.js';
import { choose } from '../../../../helpers/drive.js';
import { createTestCA } from '../../../../helpers/pki.js';
import { setupOptionsOf } from '../../../../../src/commands/setup.js';
import { flagsOf } from '../../../../../src/cli-flags.js';

let ui: InkDriver | undefined;
afterEach(() => ui?.unmount());

async function start(env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-in-place-'));
  mkdirSync(join(dir, 'inventory', 'group_vars', 'all'), { recursive: true });
  const inventory = join(dir, 'inventory', 'group_vars', 'all', 'certificates.yml');
  const ctx: CommandContext = {
    interactive: true,
    env: { PATH: process.env.PATH, HOME: dir, ...env },
    cwd: dir,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  const { session, initial } = await openSession(
    ctx,
    setupOptionsOf(flagsOf('setup', { inventory }), dir),
    async () => undefined,
  );
  const results: SetupResult[] = [];
  ui = await renderInk(<SetupApp initial={initial} session={session} onExit={(r) => results.push(r)} />);
  return { ui, results, dir, inventory };
}

async function toRfc2136Secret(d: InkDriver) {
  await choose(d, 'Individual');
  await choose(d, 'acme');
  await d.answer('ops@example.com');
  await d.answer('');
  await choose(d, 'rfc2136');
  await d.answer('127.0.0.1:53');
  await d.waitFor('TSIG secret (base64), or the path of the key file');
}

describe('fixed in place, on the question that has it', () => {
  it('the TSIG secret takes the key file: shown as typed, its name and algorithm become the next answers', async () => {
    const { ui, dir, inventory } = await start();
    writeFileSync(
      join(dir, 'tsig.key'),
      'key "fh-key" {\n\talgorithm hmac-sha512;\n\tsecret "c2VjcmV0LXRzaWcta2V5LXZhbHVl";\n};\n',
    );
    await toRfc2136Secret(ui);
    await ui.press('tsig.key');
    expect(ui.frame()).toContain('> tsig.key');
    await ui.press(KEY.enter);
    await ui.waitFor('TSIG algorithm');
    expect(ui.frame()).toMatch(/> HMACSHA512/);
    await ui.press(KEY.enter);
    await ui.waitFor('TSIG key name');
    expect(ui.frame()).toContain('> fh-key');
    await ui.press(KEY.enter);
    await choose(ui, 'No');
    await ui.waitFor('Write the secrets with Ansible Vault?');
    await choose(ui, 'No: write them in plain text');
    await ui.waitFor('Review:');
    expect(ui.frame()).toContain('Secrets written in plain text');
    // The review names the key and its file; only the secret is masked.
    await ui.waitFor('Read the TSIG key "fh-key" (HMACSHA512)');
    expect(ui.frame()).toContain(join(dir, 'tsig.key'));
    expect(ui.frame()).not.toContain('[redacted]');
    expect(ui.frame()).not.toContain('c2VjcmV0LXRzaWcta2V5LXZhbHVl');
    await ui.press(KEY.enter);
    await ui.waitFor('Written:');
    const text = readFileSync(inventory, 'utf8');
    expect(text).toContain('cluster_issuer_acme_rfc2136_tsig_secret_key: c2VjcmV0LXRzaWcta2V5LXZhbHVl');
    expect(text).toContain('cluster_issuer_acme_rfc2136_tsig_key_name: fh-key');
    expect(text).toContain('cluster_issuer_acme_rfc2136_tsig_algorithm: HMACSHA512');
  });

  it('a chain in the wrong order is offered the right order on the certificate question; accepted, the manifest has it', async () => {
    const { ui, dir } = await start();
    const ca = createTestCA('in-place CA');
    const leaf = ca.issue(['*.cloud.example.com']);
    writeFileSync(join(dir, 'reversed.pem'), ca.cert + leaf.cert);
    writeFileSync(join(dir, 'wildcard.key'), leaf.key, { mode: 0o600 });
    await choose(ui, 'Wildcard, supplied by you');
    await ui.answer('wildcard-tls');
    // Tab completes the path, as a shell does.
    await ui.press('rev');
    await ui.press(KEY.tab);
    expect(ui.frame()).toContain('> reversed.pem');
    await ui.press(KEY.enter);
    await ui.waitFor('Use the right order? Enter: yes');
    expect(ui.frame()).toContain('Wildcard certificate file');
    await ui.press(KEY.enter);
    await ui.waitFor('Wildcard private key file');
    await ui.answer('wildcard.key');
    await ui.answer('');
    await ui.waitFor('Review:');
    expect(ui.frame()).toContain('the chain was out of order');
    await ui.press(KEY.enter);
    await ui.waitFor('Written:');
    const manifest = readFileSync(join(dir, 'inventory', 'manifests', 'wildcard-tls.secret.yaml'), 'utf8');
    const crt = Buffer.from(/tls\.crt: (\S+)/.exec(manifest)![1]!, 'base64').toString();
    expect(crt).toBe(leaf.cert + ca.cert);
  });

  it('the vault is offered before secrets are written: a password file from ansible.cfg vaults them', async () => {
    const { ui, dir, inventory } = await start();
    writeFileSync(join(dir, 'vault-pass'), 'correct horse battery\n', { mode: 0o600 });
    writeFileSync(join(dir, 'ansible.cfg'), '[defaults]\nvault_password_file = vault-pass\n');
    await toRfc2136Secret(ui);
    await ui.answer('b3RoZXItdHNpZy1zZWNyZXQ=');
    await choose(ui, 'HMACSHA256');
    await ui.answer('cert-manager-key');
    await choose(ui, 'No');
    await ui.waitFor('Write the secrets with Ansible Vault?');
    expect(ui.frame()).toContain('cluster_issuer_acme_rfc2136_tsig_secret_key');
    await choose(ui, `Use ${join(dir, 'vault-pass')}`);
    await ui.waitFor('Review:');
    expect(ui.frame()).not.toContain('Secrets written in plain text');
    await ui.press(KEY.enter);
    await ui.waitFor('Written:');
    const text = readFileSync(inventory, 'utf8');
    expect(text).toMatch(/cluster_issuer_acme_rfc2136_tsig_secret_key: !vault \|/);
    expect(text).not.toContain('b3RoZXItdHNpZy1zZWNyZXQ=');
  });
});
