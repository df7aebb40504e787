import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InventoryInputError, inventoryView, readInventoryTree } from '../../../../src/core/inventory/inventory.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-tree-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
}

describe('readInventoryTree: links and order, as Ansible reads them', () => {
  it('reads a vars file reached through a symbolic link, and names it as the source', async () => {
    await put('shared/certs.yml', 'cluster_issuer_type: acme\ncluster_issuer_acme_email: not-an-email\n');
    await mkdir(join(dir, 'inv/group_vars/all'), { recursive: true });
    await symlink('../../../shared/certs.yml', join(dir, 'inv/group_vars/all/certs.yml'));
    const tree = await readInventoryTree(join(dir, 'inv'));
    expect(tree.values.cluster_issuer_acme_email).toBe('not-an-email');
    expect(tree.sources.cluster_issuer_acme_email).toBe(join(dir, 'inv/group_vars/all/certs.yml'));
  });

  it('reads a symlinked group folder', async () => {
    await put('shared/all/certs.yml', 'cluster_issuer_type: none\n');
    await mkdir(join(dir, 'inv/group_vars'), { recursive: true });
    await symlink(join(dir, 'shared/all'), join(dir, 'inv/group_vars/all'));
    const tree = await readInventoryTree(join(dir, 'inv'));
    expect(tree.files.map((f) => f.path)).toEqual([join(dir, 'inv/group_vars/all/certs.yml')]);
    expect(tree.values.cluster_issuer_type).toBe('none');
  });

  it('stops at a link back to a folder being read, and at a link to itself', async () => {
    await put('inv/group_vars/all/certs.yml', 'cluster_issuer_type: none\n');
    await symlink('..', join(dir, 'inv/group_vars/all/again'));
    await symlink('self.yml', join(dir, 'inv/group_vars/all/self.yml'));
    const tree = await readInventoryTree(join(dir, 'inv'));
    expect(tree.files.map((f) => f.path)).toEqual([join(dir, 'inv/group_vars/all/certs.yml')]);
    expect(tree.loops.sort()).toEqual([
      join(dir, 'inv/group_vars/all/again'),
      join(dir, 'inv/group_vars/all/self.yml'),
    ]);
  });

  it('orders files by name in each folder, skips hidden files and backups, and reads only the group folder when all/ and all.yml both exist', async () => {
    await put('inv/group_vars/all/b.yml', 'x_var: b\n');
    await put('inv/group_vars/all/a/z.yml', 'x_var: az\n');
    await put('inv/group_vars/all/a.yml', 'x_var: a\n');
    await put('inv/group_vars/all/.hidden.yml', 'x_var: hidden\n');
    await put('inv/group_vars/all/c.yml~', 'x_var: backup\n');
    await put('inv/group_vars/all.yml', 'x_var: ignored\n');
    const tree = await readInventoryTree(join(dir, 'inv'));
    expect(tree.files.map((f) => f.path.slice(dir.length + 1))).toEqual([
      'inv/group_vars/all/a/z.yml',
      'inv/group_vars/all/a.yml',
      'inv/group_vars/all/b.yml',
    ]);
    expect(tree.values.x_var).toBe('b');
    expect(tree.sources.x_var).toBe(join(dir, 'inv/group_vars/all/b.yml'));
  });

  it('refuses a pipe given as the inventory or found in its folder, without waiting for a writer', async () => {
    execFileSync('mkfifo', [join(dir, 'inv.yml')]);
    await expect(readInventoryTree(join(dir, 'inv.yml'))).rejects.toBeInstanceOf(InventoryInputError);
    await mkdir(join(dir, 'inv/group_vars/all'), { recursive: true });
    execFileSync('mkfifo', [join(dir, 'inv/group_vars/all/certs.yml')]);
    await expect(readInventoryTree(join(dir, 'inv'))).rejects.toThrow(/certs\.yml is not a regular file \(a pipe\)/);
  });
});

describe('one cache of parsed inventory files', () => {
  it('a doctor run reads every file of a folder once: each check gets the same parse, a changed file is read anew', async () => {
    const names = ['10-a.yml', '20-b.yml', '30-c.yml', '40-d.yml', '50-e.yml'];
    for (const [i, name] of names.entries()) await put(`inv/group_vars/all/${name}`, `var_${i}: ${i}\n`);
    await put('inv/group_vars/all/60-certs.yml', 'cluster_issuer_type: none\n');
    const first = await readInventoryTree(join(dir, 'inv'));
    const again = await readInventoryTree(join(dir, 'inv'));
    expect(again.files.map((f) => f.values)).toEqual(first.files.map((f) => f.values));
    for (const [i, file] of again.files.entries()) expect(file.values).toBe(first.files[i]!.values);

    await writeFile(join(dir, 'inv/group_vars/all/60-certs.yml'), 'cluster_issuer_type: self-signed\n');
    const view = await inventoryView({ inventoryPath: join(dir, 'inv'), inventoryExplicit: true });
    expect(view.values.cluster_issuer_type).toBe('self-signed');
  });
});
