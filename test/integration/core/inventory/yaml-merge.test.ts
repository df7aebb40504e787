/**
 * Merge keys (`<<`) read as Ansible reads them: the same file is given to the real `ansible-inventory`
 * and to cloudgate, and every variable must come out the same.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInventoryTree, readVarsFile } from '../../../../src/core/inventory/inventory.js';

/** The variables a file's merge keys brought, as the inventory read returns them with the file. */
const mergeSources = async (file: string) => (await readInventoryTree(file)).files[0]!.merged;

/** The variables Ansible gives the one host of an inventory whose group_vars/all holds `text`. */
function ansibleVars(text: string): Promise<{ vars: Record<string, unknown>; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-merge-'));
  mkdirSync(join(dir, 'group_vars', 'all'), { recursive: true });
  const file = join(dir, 'group_vars', 'all', 'certificates.yml');
  writeFileSync(file, text);
  writeFileSync(join(dir, 'hosts'), 'localhost ansible_connection=local\n');
  const env = { ...process.env, ANSIBLE_NOCOLOR: '1', ANSIBLE_DEPRECATION_WARNINGS: 'false' };
  return new Promise((resolve, reject) => {
    execFile(
      'ansible-inventory',
      ['-i', join(dir, 'hosts'), '--host', 'localhost'],
      { env, timeout: 60_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`ansible-inventory failed: ${stderr}`));
        const vars = JSON.parse(stdout) as Record<string, unknown>;
        delete vars.ansible_connection;
        resolve({ vars, file });
      },
    );
  });
}

const CASES: [string, string][] = [
  [
    'one anchored mapping, a key written after the merge wins',
    '_defaults: &d\n  cluster_issuer_type: ca\n  cluster_issuer_acme_email: base@example.com\n<<: *d\ncluster_issuer_acme_email: ops@example.com\n',
  ],
  [
    'a key written before the merge still wins',
    'cluster_issuer_type: acme\n_defaults: &d\n  cluster_issuer_type: ca\n  cluster_issuer_name: corp\n<<: *d\n',
  ],
  [
    'a list of sources: the first that has a key wins',
    '_a: &a\n  cluster_issuer_type: ca\n_b: &b\n  cluster_issuer_type: acme\n  cluster_issuer_acme_solver: dns01\n<<: [*a, *b]\n',
  ],
  ['an inline mapping', '<<: {cluster_issuer_type: self-signed}\n'],
  ['a nested merge', '_a: &a\n  cluster_issuer_type: ca\n_b: &b\n  <<: *a\n  cluster_issuer_name: corp\n<<: *b\n'],
];

describe('merge keys, cloudgate and ansible-inventory reading the same file', () => {
  it.each(CASES)(
    '%s',
    async (_, text) => {
      const { vars, file } = await ansibleVars(text);
      expect(readVarsFile(file, 'the inventory file')).toEqual(vars);
    },
    60_000,
  );

  it('a merge of a scalar: Ansible refuses the file, and so does cloudgate, saying why', async () => {
    await expect(ansibleVars('cluster_issuer_type: acme\n<<: 5\n')).rejects.toThrow(
      /mapping or list of mappings for merging/,
    );
    const { file } = await ansibleVars('cluster_issuer_type: acme\n');
    writeFileSync(file, 'cluster_issuer_type: acme\n<<: 5\n');
    expect(() => readVarsFile(file, 'the inventory file')).toThrow(/merges \(<<\) a value that is not a mapping/);
  }, 60_000);

  it('names the top-level key each merged variable came from', async () => {
    const { file } = await ansibleVars(CASES[2]![1]);
    expect(await mergeSources(file)).toEqual({ cluster_issuer_type: '_a', cluster_issuer_acme_solver: '_b' });
    const inline = await ansibleVars(CASES[3]![1]);
    expect(await mergeSources(inline.file)).toEqual({ cluster_issuer_type: '<<' });
  }, 60_000);

  it('returns where merged values came from with each file read: a copy keeps it, another inventory has its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-merge-'));
    const first = join(dir, 'first.yml');
    const second = join(dir, 'second.yml');
    writeFileSync(first, '_a: &a\n  cluster_issuer_type: ca\n<<: *a\n');
    writeFileSync(second, '_b: &b\n  cluster_issuer_acme_email: ops@example.com\ncluster_issuer_type: acme\n<<: *b\n');
    const [one, two] = [await readInventoryTree(first), await readInventoryTree(second)];
    // Provenance is a value of what was read, not state kept aside by object identity.
    expect(structuredClone(one).files[0]!.merged).toEqual({ cluster_issuer_type: '_a' });
    expect(two.files[0]!.merged).toEqual({ cluster_issuer_acme_email: '_b' });
  });
});
