/**
 * Bytes Ansible's YAML reader refuses (NUL and other control characters, invalid UTF-8): the same file
 * is given to the real `ansible-inventory` and to cloudgate; both refuse it, cloudgate naming the file and where.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInventoryFile, readVarsFile } from '../../../../src/core/inventory/inventory.js';

function inventoryWith(bytes: Buffer): { file: string; hosts: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-bytes-'));
  mkdirSync(join(dir, 'group_vars', 'all'), { recursive: true });
  const file = join(dir, 'group_vars', 'all', 'certificates.yml');
  writeFileSync(file, bytes);
  writeFileSync(join(dir, 'hosts'), 'localhost ansible_connection=local\n');
  return { file, hosts: join(dir, 'hosts') };
}

/** Whether ansible-inventory loads the inventory and gives the host cluster_issuer_type. */
function ansibleLoads(hosts: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      'ansible-inventory',
      ['-i', hosts, '--host', 'localhost'],
      { env: { ...process.env, ANSIBLE_NOCOLOR: '1' }, timeout: 60_000, killSignal: 'SIGKILL' },
      (error, stdout) => {
        resolve(!error && 'cluster_issuer_type' in (JSON.parse(stdout) as object));
      },
    );
  });
}

const text = (s: string) => Buffer.from(s, 'utf8');

describe('characters and bytes Ansible refuses', () => {
  it.each([
    ['a NUL byte', text('cluster_issuer_type: acme\0\n'), /U\+0000 \(line 1, column 26\)/],
    [
      'an escape character',
      text('cluster_issuer_acme_email: ops@example.com\ncluster_issuer_type: a\x1bcme\n'),
      /U\+001B \(line 2, column 23\)/,
    ],
    ['a DEL', text('cluster_issuer_type: acme\x7f\n'), /U\+007F/],
    [
      'Latin-1 bytes (invalid UTF-8)',
      Buffer.concat([text('cluster_issuer_type: acme\n# caf'), Buffer.from([0xe9]), text('\n')]),
      /not valid UTF-8 \(line 2, column 6\)/,
    ],
  ])(
    '%s: both refuse the file, cloudgate naming it',
    async (_, bytes, where) => {
      const { file, hosts } = inventoryWith(bytes);
      expect(await ansibleLoads(hosts)).toBe(false);
      expect(() => readVarsFile(file, 'the inventory file')).toThrow(where);
      expect(() => readVarsFile(file, 'the inventory file')).toThrow(file);
      await expect(readInventoryFile(file)).rejects.toThrow(/Ansible refuses to load it/);
    },
    60_000,
  );

  it('accepts what YAML allows: tabs, CRLF, NEL, non-ASCII, U+FFFD', async () => {
    const { file, hosts } = inventoryWith(
      text(
        'cluster_issuer_type: acme\r\ncluster_issuer_acme_email: "z\u00fcrich\u0085\u{1F512}\ufffd\t@example.com"\n',
      ),
    );
    expect(await ansibleLoads(hosts)).toBe(true);
    expect(readVarsFile(file, 'the inventory file')?.cluster_issuer_type).toBe('acme');
  }, 60_000);
});
