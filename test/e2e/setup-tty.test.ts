/** The setup walkthrough of the built binary in a real terminal (tmux, 80x24 unless a test says otherwise). */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestCA } from '../helpers/pki.js';
import { launchCloudgate, type Terminal } from '../helpers/tmux.js';
import { BIN } from '../helpers/cli.js';

let term: Terminal | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudgate-e2e-tty-'));
});
afterEach(() => {
  term?.kill();
  rmSync(dir, { recursive: true, force: true });
});

function launch(args: string[], size = { x: 80, y: 24 }, color = false) {
  // cloudgate on the PATH, as npm link puts it there: the next steps then say "cloudgate".
  const bin = join(dir, 'bin');
  if (!existsSync(bin)) {
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'cloudgate'));
  }
  term = launchCloudgate(args, { cwd: dir, size, color, env: { PATH: `${bin}:${process.env.PATH}` } });
}
const screen = () => term!.screen();
const waitFor = (text: string | RegExp, timeoutMs?: number) => term!.waitFor(text, timeoutMs);

/** Sends keys once `text` is on screen, and waits until the screen changes (the key was handled). */
async function at(text: string | RegExp, ...keys: string[]) {
  await waitFor(text);
  await term!.press(...keys);
}

async function type(text: string | RegExp, literal: string) {
  await waitFor(text);
  term!.send('-l', literal);
  await waitFor(literal);
  term!.send('Enter');
}

describe('cloudgate setup in a real terminal (tmux, 80x24)', () => {
  it('a text field edits like a shell prompt: Ctrl+W, Backspace, Left, Home, Delete, End', async () => {
    launch(['setup', '--inventory', join(dir, 'certificates.yml')]);
    await at('Certificate type', 'Down');
    await at('> Wildcard, issued automatically', 'Enter');
    await waitFor('Domain of the wildcard certificate');
    term!.send('-l', 'Xcloud.exampxle.com/junk');
    await waitFor('> Xcloud.exampxle.com/junk');
    await at('/junk', 'C-w');
    await waitFor(/> Xcloud\.exampxle\.com\/\s*$/m);
    term!.send('BSpace', 'Left', 'Left', 'Left', 'Left', 'Left', 'Left', 'BSpace');
    await waitFor(/> Xcloud\.example\.com\s*$/m);
    term!.send('Home', 'DC', 'End', 'Enter');
    await waitFor('Certificate issuer');
    // Back: the answer as edited.
    term!.send('Escape');
    await waitFor(/> cloud\.example\.com\s*$/m);
    term!.send('C-c');
    await waitFor('EXIT=');
  });

  it('walks a CA issuer with files and annotations, and writes the inventory', async () => {
    const ca = createTestCA('cloudgate e2e issuing CA');
    // Line endings as openssl writes them (the test CA's certificates come with CRLF).
    const lf = (pem: string) => pem.replace(/\r\n/g, '\n');
    writeFileSync(join(dir, 'issuer.pem'), lf(ca.cert));
    writeFileSync(join(dir, 'issuer.key'), lf(ca.key));
    const inventory = join(dir, 'certificates.yml');
    launch(['setup', '--inventory', inventory]);

    await at('Certificate type', 'Enter');
    await at('Certificate issuer', 'Down', 'Down');
    await at('> ca', 'Enter');
    await type('cluster_issuer_ca_certificate', 'issuer.pem');
    await waitFor('cluster_issuer_ca_private_key');
    await type('cluster_issuer_ca_private_key', 'issuer.key');
    await at('Add certificate subject annotations?', 'Down');
    await at('> Yes', 'Enter');
    await type('cert-manager.io/subject-organizations', 'Example Org');
    for (const field of ['organizationalunits', 'localities', 'provinces'])
      await at(`cert-manager.io/subject-${field}`, 'Enter');
    await type('cert-manager.io/subject-countries', 'CH');
    // The CA key would be written in plain text: the vault is offered first; declined here.
    await at('Write the secrets with Ansible Vault?', 'Up');
    await at('> No: write them in plain text', 'Enter');

    const review = await waitFor('Review:');
    expect(review).toContain('Secrets written in plain text');
    expect(review).toContain('Files to write:');
    expect(review).not.toContain('BEGIN PRIVATE KEY');
    for (const line of review.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    await at('Enter write these files', 'Enter');

    const final = await waitFor('EXIT=0');
    expect(final).toContain('Written:');
    expect(final).toContain(`cloudgate doctor --inventory ${inventory}`);
    const text = readFileSync(inventory, 'utf8');
    expect(text).toContain('cluster_issuer_type: ca');
    expect(text).toContain('cert-manager.io/subject-organizations: Example Org');
    expect(text).toContain('cert-manager.io/subject-countries: CH');
    expect(text).toContain(lf(ca.cert).trim().split('\n')[1]);
    expect(statSync(inventory).mode & 0o777).toBe(0o600);
  });

  it('the review scrolls from the inventory diff on to the objects that change in the cluster and their diff', async () => {
    const inventory = join(dir, 'certificates.yml');
    writeFileSync(inventory, 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n');
    launch(['setup', '--inventory', inventory]);
    await at('Certificate type', 'Enter');
    await at('Certificate issuer', 'Down', 'Down', 'Down');
    await at('> self-signed', 'Enter');
    await at('Add certificate subject annotations?', 'Enter');
    const review = await waitFor('Enter write these files');
    expect(review).toContain('Issuer: self-signed (was acme)');
    expect(review).toContain('The issuer changes from acme to self-signed');
    const seen = [review];
    for (let i = 0; i < 20 && !screen().includes('+++ ClusterIssuer atmosphere (after)'); i++) {
      seen.push(await term!.press('Space'));
    }
    const all = seen.join('\n');
    expect(all).toContain('-cluster_issuer_acme_email: ops@example.com');
    expect(all).toContain('~ ClusterIssuer atmosphere: spec.acme, spec.ca');
    expect(all).toContain('+++ ClusterIssuer atmosphere (after)');
    for (const line of all.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    term!.send('C-c');
    await waitFor('EXIT=130');
    expect(readFileSync(inventory, 'utf8')).toBe(
      'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n',
    );
  });

  it('Esc goes back with the answer kept; Ctrl+C cancels with exit 130, no stack trace, nothing written; the layout holds at 40 columns', async () => {
    const inventory = join(dir, 'certificates.yml');
    launch(['setup', '--inventory', inventory], { x: 40, y: 24 });
    await at('Certificate type', 'Down');
    const narrow = await waitFor('> Wildcard, issued automatically');
    for (const line of narrow.split('\n')) expect(line.length).toBeLessThanOrEqual(40);
    expect(narrow).toContain('Enter next');
    await at('> Wildcard, issued automatically', 'Enter');
    await type('openstack_helm_ingress_wildcard_domain', 'cloud.example.com');
    await at('Certificate issuer', 'Escape');
    const back = await waitFor('openstack_helm_ingress_wildcard_domain');
    expect(back).toContain('> cloud.example.com');
    await at('> cloud.example.com', 'Enter');
    await at('Certificate issuer', 'C-c');
    const s = await waitFor('EXIT=130');
    expect(s).toContain('Cancelled. Nothing was written.');
    expect(s).not.toMatch(/\bat .*\.js:\d+/);
    expect(existsSync(inventory)).toBe(false);
  });

  it('wildcard issued automatically: the domain question is not optional and an empty answer is refused (Ink and --plain)', async () => {
    const inventory = join(dir, 'certificates.yml');
    launch(['setup', '--inventory', inventory]);
    await at('Certificate type', 'Down');
    await at('> Wildcard, issued automatically', 'Enter');
    const asked = await waitFor('openstack_helm_ingress_wildcard_domain');
    expect(asked).not.toContain('(optional');
    term!.send('Enter');
    const refused = await waitFor(/required/);
    expect(refused).not.toContain('Certificate issuer');
    term!.kill();

    launch(['setup', '--plain', '--inventory', inventory]);
    // Plain mode: numbered choices, typed; the question in words, its variable on the line above.
    await at('Choose 1-3', '2', 'Enter');
    const plain = await waitFor(/openstack_helm_ingress_wildcard_domain\n\?/);
    expect(plain.slice(plain.lastIndexOf('openstack_helm_ingress_wildcard_domain'))).not.toContain('(optional)');
    term!.send('Enter');
    await waitFor(/required/);
    expect(screen()).not.toContain('Certificate issuer');
    expect(existsSync(inventory)).toBe(false);
  });

  it('respects NO_COLOR: colours without it, none with it', async () => {
    const COLOUR = /\u001b\[(?:\d+;)*(?:3[0-7]|38;[25];[\d;]+)(?:;\d+)*m/;
    const inventory = join(dir, 'certificates.yml');
    const coloured = async (color: boolean) => {
      launch(['setup', '--inventory', inventory], { x: 80, y: 24 }, color);
      await at('Certificate type', 'Down');
      await waitFor('> Wildcard, issued automatically');
      const escaped = term!.screen(true);
      term!.kill();
      return escaped;
    };
    expect(await coloured(true)).toMatch(COLOUR);
    expect(await coloured(false)).not.toMatch(COLOUR);
  });

  it('--plain asks line by line in the same terminal and writes the inventory', async () => {
    const inventory = join(dir, 'certificates.yml');
    // Tall enough to keep the whole review on screen: the inventory diff, then the objects and their diff.
    launch(['setup', '--plain', '--inventory', inventory], { x: 100, y: 120 });
    await at('Choose 1-3', 'Enter');
    await at(/4\) self-signed[\s\S]*Choose 1-5/, '4', 'Enter');
    await at('Add certificate subject annotations?', 'Enter');
    const review = await waitFor('Write these files?');
    expect(review).toContain('+cluster_issuer_type: self-signed');
    expect(review.indexOf('+ Certificate cert-manager/self-signed-ca (new)')).toBeGreaterThan(
      review.indexOf('+cluster_issuer_type: self-signed'),
    );
    expect(review.indexOf('+++ Certificate cert-manager/self-signed-ca (after)')).toBeGreaterThan(
      review.indexOf('+ Certificate cert-manager/self-signed-ca (new)'),
    );
    await at('Write these files?', 'Enter');
    await waitFor('EXIT=0');
    expect(readFileSync(inventory, 'utf8')).toContain('cluster_issuer_type: self-signed');
  });

  it("a new inventory: no question about names; the platform's are written, the neutral aliases only with --names spec (said in the review)", async () => {
    const inventory = join(dir, 'certificates.yml');
    launch(['setup', '--plain', '--inventory', inventory], { x: 100, y: 120 });
    const first = await waitFor('Choose 1-3');
    expect(first).toContain('Certificate type');
    expect(first).not.toMatch(/variable names|neutral/i);
    term!.send('Enter');
    await at(/2\) venafi[\s\S]*4\) self-signed[\s\S]*Choose 1-5/, '4', 'Enter');
    await at('Add certificate subject annotations?', 'Enter');
    // The self-signed CA's Secret carries the role's default name.
    const review = await waitFor('Write these files?');
    expect(review).toContain('cert-manager-selfsigned-ca');
    expect(review).not.toMatch(/certmgr|Variable names/);
    await at('Write these files?', 'Enter');
    await waitFor('EXIT=0');
    term!.kill();

    const neutral = join(dir, 'neutral.yml');
    launch(['setup', '--plain', '--names', 'spec', '--inventory', neutral], { x: 100, y: 120 });
    await at('Choose 1-3', 'Enter');
    await at(/2\) commercialca[\s\S]*4\) self-signed[\s\S]*Choose 1-5/, '4', 'Enter');
    await at('Add certificate subject annotations?', 'Enter');
    const spec = await waitFor('Write these files?');
    expect(spec).toContain('Variable names: the neutral aliases (--names spec)');
    expect(spec).toContain('certmgr-selfsigned-ca');
    await at('Write these files?', 'Enter');
    await waitFor('EXIT=0');
  });
});
