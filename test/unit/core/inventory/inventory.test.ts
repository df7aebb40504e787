import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically } from '../../../../src/core/inventory/atomic-write.js';
import { parseInventory, readInventoryTree, updateInventoryText } from '../../../../src/core/inventory/inventory.js';

const FIXTURES = new URL('../../../fixtures/inventory/', import.meta.url).pathname;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-inv-'));
});
afterEach(async () => {
  await chmod(dir, 0o700).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

/** Lines of `after` that are not in `before` and vice versa (a crude line diff, enough to pin edits). */
function changedLines(before: string, after: string) {
  const a = before.split('\n');
  const b = after.split('\n');
  return { removed: a.filter((l) => !b.includes(l)), added: b.filter((l) => !a.includes(l)) };
}

describe('updateInventoryText', () => {
  it('changes only the touched keys of a realistic inventory, byte for byte elsewhere', async () => {
    const text = await readFile(join(FIXTURES, 'realistic.yml'), 'utf8');
    const out = updateInventoryText(text, {
      set: { cluster_issuer_acme_email: 'pki@example.com', cluster_issuer_acme_rfc2136_tsig_key_name: 'certmgr' },
      remove: [],
    });
    expect(changedLines(text, out)).toEqual({
      removed: ['cluster_issuer_acme_email: "ops@example.com"  # shared mailbox'],
      added: ['cluster_issuer_acme_email: pki@example.com  # shared mailbox'],
    });
    expect(out.length).toBe(text.length - 2);
    expect(parseInventory(out, 'x').neutron_networks).toEqual(parseInventory(text, 'x').neutron_networks);
  });

  it('leaves the text identical when nothing changes', async () => {
    const text = await readFile(join(FIXTURES, 'realistic.yml'), 'utf8');
    expect(updateInventoryText(text, { set: { cluster_issuer_type: 'acme', kube_vip_address: '10.10.0.5' }, remove: [] })).toBe(text);
  });

  it('removes keys and appends new ones with a help comment, keeping everything else', async () => {
    const text = await readFile(join(FIXTURES, 'realistic.yml'), 'utf8');
    const out = updateInventoryText(text, {
      set: { cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 'tok-123456' },
      remove: ['cluster_issuer_acme_rfc2136_nameserver', 'cluster_issuer_acme_rfc2136_tsig_algorithm',
        'cluster_issuer_acme_rfc2136_tsig_key_name', 'cluster_issuer_acme_rfc2136_tsig_secret_key'],
    });
    expect(out).not.toContain('rfc2136_');
    expect(out).toContain('cluster_issuer_acme_solver: dnsc\n');
    expect(out.endsWith('# trailing comment at the end\n\n# API token allowed to edit the zone\ncluster_issuer_acme_dnsc_api_token: tok-123456\n')).toBe(true);
    const { removed } = changedLines(text, out);
    expect(removed.every((l) => l.includes('rfc2136'))).toBe(true);
    expect(out).toContain("ntp_servers: ['0.pool.ntp.org',   \"1.pool.ntp.org\"]");
  });

  it('writes multi-line PEM values as literal blocks and replaces them whole', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const first = updateInventoryText('a: 1\n', { set: { cluster_issuer_ca_certificate: pem, cluster_issuer_type: 'ca' }, remove: [] });
    expect(first).toContain('cluster_issuer_ca_certificate: |\n  -----BEGIN CERTIFICATE-----\n  MIIB\n');
    expect(parseInventory(first, 'x').cluster_issuer_ca_certificate).toBe(pem);
    const second = updateInventoryText(first, { set: { cluster_issuer_ca_certificate: pem.replace('MIIB', 'MIIC') }, remove: [] });
    expect(parseInventory(second, 'x')).toMatchObject({ a: 1, cluster_issuer_type: 'ca', cluster_issuer_ca_certificate: pem.replace('MIIB', 'MIIC') });
  });

  it('quotes strings that YAML 1.1 (Ansible) would read as booleans', () => {
    const out = updateInventoryText('', { set: { cluster_issuer_commercialca_zone: 'yes' }, remove: [] });
    expect(parseInventory(out, 'x').cluster_issuer_commercialca_zone).toBe('yes');
  });

  it('refuses bad YAML naming the file', () => {
    expect(() => parseInventory('a: [1,\n', 'inv.yml')).toThrow(/inv.yml is not valid YAML/);
    expect(() => parseInventory('- a\n- b\n', 'inv.yml')).toThrow(/must be a YAML mapping/);
  });
});

describe('readInventoryTree', () => {
  it('reads every YAML file under group_vars and reports a variable defined twice with different values', async () => {
    const tree = await readInventoryTree(join(FIXTURES, 'site'));
    expect(tree.files.map((f) => f.path.slice(FIXTURES.length))).toEqual([
      'site/group_vars/all/certificates.yml', 'site/group_vars/all/network.yaml', 'site/group_vars/controllers/certificates.yml',
    ]);
    expect(tree.conflicts).toEqual([{ name: 'cluster_issuer_acme_email', files: ['group_vars/all/certificates.yml', 'group_vars/controllers/certificates.yml'] }]);
  });

  it('reads the YAML files of a folder without group_vars (e.g. group_vars/all itself)', async () => {
    const tree = await readInventoryTree(join(FIXTURES, 'site/group_vars/all'));
    expect(tree.files.map((f) => f.path.slice(FIXTURES.length))).toEqual(['site/group_vars/all/certificates.yml', 'site/group_vars/all/network.yaml']);
    expect(tree.conflicts).toEqual([]);
  });
});

describe('writeFilesAtomically', () => {
  it('writes with the given mode and backs up the previous version', async () => {
    const target = join(dir, 'certificates.yml');
    await writeFile(target, 'old: 1\n', { mode: 0o644 });
    const [written] = await writeFilesAtomically([{ path: target, content: 'new: 1\n', mode: 0o600, holdsSecret: true, description: 'inventory' }], new Date('2026-01-02T03:04:05Z'));
    expect(await readFile(target, 'utf8')).toBe('new: 1\n');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(written.backupPath).toBe(`${target}.20260102T030405Z.bak`);
    expect(await readFile(written.backupPath!, 'utf8')).toBe('old: 1\n');
    expect((await stat(written.backupPath!)).mode & 0o777).toBe(0o600);
  });

  it('changes no file when one of the writes fails', async () => {
    const target = join(dir, 'certificates.yml');
    await writeFile(target, 'old: 1\n');
    const blocked = join(dir, 'blocker');
    await writeFile(blocked, 'a file where a folder is needed');
    await expect(writeFilesAtomically([
      { path: target, content: 'new: 1\n', mode: 0o644, holdsSecret: false, description: 'inventory' },
      { path: join(dir, 'new', 'folder', 'x.yaml'), content: 'x', mode: 0o600, holdsSecret: true, description: 'manifest' },
      { path: join(blocked, 'manifest.yaml'), content: 'x', mode: 0o600, holdsSecret: true, description: 'manifest' },
    ])).rejects.toThrow(/Nothing was written/);
    expect(await readFile(target, 'utf8')).toBe('old: 1\n');
    expect((await readdir(dir)).sort()).toEqual(['blocker', 'certificates.yml']);
  });
});
