/**
 * setup as root never writes through a link another user (uid 65534) planted in a sticky 1777 folder:
 * neither the inventory nor the TLS Secret manifest (it holds the private key). Exit 1 naming the link
 * and its owner; the file the link points to is untouched. Run `npm run build` first; runs as root.
 */
import { chmodSync, lchownSync } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestCA } from '../helpers/pki.js';

const FIXTURES = new URL('../fixtures/inventory/', import.meta.url).pathname;
const VICTIM_TEXT = 'root: only\n';

let dir: string;
let shared: string;
let victim: string;
beforeEach(async () => {
  expect(process.getuid!()).toBe(0);
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-e2e-links-'));
  shared = join(dir, 'shared');
  await mkdir(shared);
  chmodSync(shared, 0o1777);
  victim = join(dir, 'root-only');
  await writeFile(victim, VICTIM_TEXT, { mode: 0o600 });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function plant(link: string): Promise<void> {
  await symlink(victim, link);
  lchownSync(link, 65534, 65534);
}

describe('setup and a link planted by another user', () => {
  it('does not write the inventory through it', async () => {
    const inventory = join(shared, 'certificates.yml');
    await plant(inventory);
    await writeFile(join(dir, 'a.yml'), 'cluster_issuer_acme_email: a@example.com\n');
    const r = await runCli(['setup', '--answers', join(dir, 'a.yml'), '--inventory', inventory, '--yes'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Refused to write through the link ${inventory}`);
    expect(r.stderr).toContain('uid 65534');
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
    expect((await lstat(inventory)).isSymbolicLink()).toBe(true);
  });

  it('does not write the TLS Secret manifest (the private key) through it, nor the inventory', async () => {
    const inventory = join(dir, 'certificates.yml');
    await copyFile(join(FIXTURES, 'realistic.yml'), inventory);
    const before = await readFile(inventory, 'utf8');
    const ca = createTestCA('e2e link CA');
    const leaf = ca.issue(['*.cloud.example.com']);
    await writeFile(join(dir, 'wildcard.pem'), leaf.cert + ca.cert);
    await writeFile(join(dir, 'wildcard.key'), leaf.key);
    await writeFile(
      join(dir, 'w.yml'),
      'openstack_helm_ingress_wildcard_domain: cloud.example.com\nwildcard_certificate_file: wildcard.pem\nwildcard_key_file: wildcard.key\n',
    );
    const manifest = join(shared, 'wildcard.secret.yaml');
    await plant(manifest);

    const r = await runCli(
      ['setup', '--answers', join(dir, 'w.yml'), '--inventory', inventory, '--secret-manifest', manifest, '--yes'],
      { cwd: dir },
    );

    expect(r.code).toBe(1);
    expect(r.stderr).toContain(manifest);
    expect(r.stderr).toContain('uid 65534');
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
    expect(await readFile(inventory, 'utf8')).toBe(before); // all or nothing
    expect(r.stderr).not.toContain(leaf.key.split('\n')[1]);
  });
});
