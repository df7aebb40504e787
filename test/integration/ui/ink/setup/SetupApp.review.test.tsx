import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

function context(inventory: string, env: NodeJS.ProcessEnv = process.env): CommandContext {
  return {
    interactive: true,
    env,
    cwd: join(inventory, '..'),
    stdout: process.stdout,
    stderr: process.stderr,
  };
}

let ui: InkDriver | undefined;
afterEach(() => ui?.unmount());

async function start(inventory: string, flags: Record<string, string | boolean> = {}, env?: NodeJS.ProcessEnv) {
  const { session, initial } = await openSession(
    context(inventory, env),
    setupOptionsOf(flagsOf('setup', { inventory, ...flags }), join(inventory, '..')),
    async () => undefined,
  );
  const results: SetupResult[] = [];
  ui = await renderInk(<SetupApp initial={initial} session={session} onExit={(r) => results.push(r)} />);
  return { ui, results };
}

/** Individual + ACME + godaddy, with the godaddy secrets typed in. */
async function answerGodaddy(d: InkDriver) {
  await choose(d, 'Individual');
  await choose(d, 'acme');
  await d.answer('ops@example.com');
  await d.answer('');
  await choose(d, 'godaddy');
  await d.answer('godaddy-api-key-1234');
  await d.answer('godaddy-secret-key-5678');
  await choose(d, 'No');
  // The secrets would go in plain text: the vault is offered first; here, declined.
  await d.waitFor('Write the secrets with Ansible Vault?');
  await choose(d, 'No: write them in plain text');
  await d.waitFor('Review:');
}

describe('review and write, through the real plan', () => {
  it('shows the diff with secrets masked and the files to write; Ctrl+C there writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-review-'));
    const inventory = join(dir, 'certificates.yml');
    const { ui, results } = await start(inventory);
    await answerGodaddy(ui);
    expect(ui.frame()).toMatch(/lines 1-\d+ of \d+ \(arrows scroll\)/);
    // The secrets go in plain text (no vault password): the review says so.
    expect(ui.frame()).toContain('Secrets written in plain text');
    for (let i = 0; i < 6 && !ui.frame().includes('+cluster_issuer_acme_email: ops@example.com'); i++)
      await ui.press(KEY.down);
    expect(ui.frame()).toContain('+cluster_issuer_acme_email: ops@example.com');
    for (let i = 0; i < 6; i++) await ui.press(KEY.down);
    const frame = ui.frame();
    expect(frame).toContain('+cluster_issuer_acme_godaddy_api_key: ********');
    expect(frame).toContain('+cluster_issuer_acme_godaddy_secret_key: ********');
    expect(frame).not.toContain('godaddy-api-key-1234');
    expect(frame).not.toContain('godaddy-secret-key-5678');
    expect(frame).toMatch(new RegExp(`${inventory} - inventory \\(new\\) \\(mode 0600, holds secrets, \\+\\d+ -0`));
    await ui.press(KEY.ctrlC);
    expect(results[0]).toMatchObject({ kind: 'error', error: { message: 'Cancelled. Nothing was written.' } });
    expect(existsSync(inventory)).toBe(false);
  });

  it("the diff scrolls on to what changes in the cluster: one line per object, then the objects' diff", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-review-'));
    const inventory = join(dir, 'certificates.yml');
    const { ui } = await start(inventory);
    await answerGodaddy(ui);
    const seen: string[] = [];
    for (let i = 0; i < 30 && !ui.frame().includes('+++ ClusterIssuer atmosphere (after)'); i++) {
      seen.push(ui.frame());
      await ui.press(' ');
    }
    seen.push(ui.frame());
    const all = seen.join('\n');
    expect(all).toContain('+ ClusterIssuer atmosphere (new)');
    expect(all).toContain('+++ ClusterIssuer atmosphere (after)');
    expect(all).toContain('token: "********"');
    expect(all).not.toContain('godaddy-api-key-1234');
  });

  it('Enter writes the inventory (0600: it holds secrets) and the final screen lists it and what to run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-review-'));
    const inventory = join(dir, 'certificates.yml');
    const { ui, results } = await start(inventory);
    await answerGodaddy(ui);
    await ui.press(KEY.enter);
    await ui.waitFor('Written:');
    expect(ui.frame()).toContain(inventory);
    expect(ui.frame()).toContain(`cloudgate doctor --inventory ${inventory}`);
    expect(results[0].kind).toBe('done');
    expect(statSync(inventory).mode & 0o777).toBe(0o600);
    const text = readFileSync(inventory, 'utf8');
    expect(text).toContain('cluster_issuer_acme_solver: godaddy');
    expect(text).toContain('cluster_issuer_acme_godaddy_secret_key: godaddy-secret-key-5678');
  });

  it('warns at the review when the issuer changes and offers cloudgate regenerate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-review-'));
    const inventory = join(dir, 'certificates.yml');
    writeFileSync(inventory, 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n');
    const { ui } = await start(inventory);
    await choose(ui, 'Individual');
    await choose(ui, 'ca');
    await ui.answer(join(dir, 'missing.pem'));
    expect(ui.frame()).toContain('does not exist');
    await ui.press(KEY.escape);
    await choose(ui, 'self-signed');
    await choose(ui, 'No');
    await ui.waitFor('Review:');
    expect(ui.frame()).toContain('The issuer changes from acme to self-signed: the existing certificate');
    expect(ui.frame()).toContain('cloudgate regenerate');
    expect(ui.frame()).toContain('-cluster_issuer_acme_email: ops@example.com');
  });

  it('answers that change nothing write nothing, and the final screen says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-review-'));
    const inventory = join(dir, 'certificates.yml');
    writeFileSync(inventory, 'cluster_issuer_type: self-signed\n');
    const { ui, results } = await start(inventory);
    await choose(ui, 'Individual');
    await choose(ui, 'self-signed');
    await choose(ui, 'No');
    await ui.waitFor('Review:');
    await ui.press(KEY.enter);
    await ui.waitFor('Nothing to write: the files already hold these settings.');
    expect(ui.frame()).not.toContain('Written:');
    expect(results[0].kind).toBe('done');
    expect(readFileSync(inventory, 'utf8')).toBe('cluster_issuer_type: self-signed\n');
  });

  it('--dry-run reviews and finishes without writing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-review-'));
    const inventory = join(dir, 'certificates.yml');
    const { ui, results } = await start(inventory, { 'dry-run': true });
    await choose(ui, 'Individual');
    await choose(ui, 'self-signed');
    await choose(ui, 'No');
    await ui.waitFor('Review:');
    expect(ui.frame()).toContain('Would write (dry run: nothing is written)');
    await ui.press(KEY.enter);
    await ui.waitFor('Dry run: nothing was written.');
    expect(results[0].kind).toBe('done');
    expect(existsSync(inventory)).toBe(false);
  });

  it('keyless route53 shows the once-per-cluster checklist and ends with the discovery checks to run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-review-'));
    const inventory = join(dir, 'certificates.yml');
    const { ui } = await start(inventory, { 'dry-run': true });
    await choose(ui, 'Individual');
    await choose(ui, 'acme');
    await ui.answer('ops@example.com');
    await ui.answer('');
    await choose(ui, 'route53');
    await choose(ui, 'kubernetes');
    await ui.answer('eu-west-1');
    await ui.answer('Z0123456789');
    await ui.waitFor('Keyless route53 (auth kubernetes) needs, once per cluster:');
    expect(ui.frame()).toContain('Publish the OIDC discovery documents');
    expect(ui.frame()).toContain('cloudgate doctor --only discovery');
    await ui.answer('');
    expect(ui.frame()).toMatch(/role/i);
    await ui.answer('arn:aws:iam::123456789012:role/cert-manager-dns01');
    await ui.answer('');
    await choose(ui, 'No');
    await ui.waitFor('Review:');
    await ui.press(KEY.enter);
    await ui.waitFor('Dry run: nothing was written.');
    // Nothing was written: no command to run on the old inventory, only how to write.
    expect(ui.frame()).toContain('# Dry run: nothing was written. Run the same command without --dry-run');
    expect(ui.frame()).not.toContain('<ISSUER_URL>');
    // A dry run wrote no inventory for the checks to read: no offer to run them.
    expect(ui.frame()).not.toContain('Run the discovery checks now?');
  });

  it('--apply without kubectl: the files are written, the final screen says why nothing was applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-review-'));
    const inventory = join(dir, 'certificates.yml');
    const ca = createTestCA();
    const leaf = ca.issue(['*.cloud.example.com']);
    writeFileSync(join(dir, 'wild.crt'), leaf.cert + ca.cert);
    writeFileSync(join(dir, 'wild.key'), leaf.key);
    chmodSync(join(dir, 'wild.key'), 0o600);
    const { ui, results } = await start(
      inventory,
      { apply: true },
      { ...process.env, CLOUDGATE_KUBECTL: join(dir, 'no-kubectl') },
    );
    await choose(ui, 'Wildcard, supplied by you');
    await ui.answer('wildcard-tls');
    await ui.answer(join(dir, 'wild.crt'));
    await ui.answer(join(dir, 'wild.key'));
    await ui.answer('');
    await ui.waitFor('Review:');
    expect(ui.frame()).toContain('wildcard-tls.secret.yaml - TLS Secret manifest');
    await ui.press(KEY.enter);
    await ui.waitFor('Written:');
    expect(ui.frame()).toMatch(/x .*kubectl/);
    const r = results[0];
    expect(r.kind === 'done' && r.outcome.applied?.ok).toBe(false);
    expect(statSync(join(dir, 'manifests', 'wildcard-tls.secret.yaml')).mode & 0o777).toBe(0o600);
  });
});
