/**
 * Files that override what setup writes, beyond its own group folder: `host_vars/` and other groups'
 * `group_vars/`. The real `ansible-inventory` says which value the host gets; cloudgate must name that file.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { overrideWarnings } from '../../../../src/core/inventory/vars-overrides.js';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cloudgate-overrides-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function hostVars(root: string, host: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      'ansible-inventory',
      ['-i', join(root, 'hosts'), '--host', host],
      { env: { ...process.env, ANSIBLE_NOCOLOR: '1' }, timeout: 60_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr)) : resolve(JSON.parse(stdout) as Record<string, unknown>),
    );
  });
}

describe('variables overridden outside the group folder setup writes', () => {
  it("names the host_vars file and the other group's file whose values Ansible uses", async () => {
    const root = tree({
      hosts: '[controllers]\nctl1 ansible_connection=local\n',
      'group_vars/all/certificates.yml':
        'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\ncluster_issuer_name: atmosphere\n',
      'group_vars/controllers.yml': 'cluster_issuer_acme_email: other@example.com\n',
      'host_vars/ctl1/zz.yml': 'cluster_issuer_type: self-signed\n',
    });
    const seen = await hostVars(root, 'ctl1');
    expect([seen.cluster_issuer_type, seen.cluster_issuer_acme_email, seen.cluster_issuer_name]).toEqual([
      'self-signed',
      'other@example.com',
      'atmosphere',
    ]);
    const warnings = await overrideWarnings(join(root, 'group_vars/all/certificates.yml'), [
      'cluster_issuer_type',
      'cluster_issuer_acme_email',
      'cluster_issuer_name',
    ]);
    const byVariable = Object.fromEntries(warnings.map((w) => [w.variable, w.message]));
    expect(Object.keys(byVariable).sort()).toEqual(['cluster_issuer_acme_email', 'cluster_issuer_type']);
    expect(byVariable.cluster_issuer_type).toContain(join(root, 'host_vars/ctl1/zz.yml'));
    expect(byVariable.cluster_issuer_type).toContain('host variables of ctl1');
    expect(byVariable.cluster_issuer_acme_email).toContain(join(root, 'group_vars/controllers.yml'));
    expect(byVariable.cluster_issuer_acme_email).toContain('group controllers');
    expect(warnings.every((w) => w.severity === 'warning' && w.rule === 'overridden')).toBe(true);
  }, 60_000);

  it('a file written as group_vars/all.yml is overridden the same way; "all" never overrides another group', async () => {
    const root = tree({
      hosts: '[computes]\ncmp1 ansible_connection=local\n',
      'group_vars/all.yml': 'cluster_issuer_acme_email: all@example.com\n',
      'group_vars/computes.yml': 'cluster_issuer_acme_email: ops@example.com\n',
      'host_vars/cmp1.yml': 'cluster_issuer_acme_email: host@example.com\n',
    });
    expect((await hostVars(root, 'cmp1')).cluster_issuer_acme_email).toBe('host@example.com');
    const fromAll = await overrideWarnings(join(root, 'group_vars/all.yml'), ['cluster_issuer_acme_email']);
    expect(fromAll.map((w) => w.message)).toEqual([
      expect.stringContaining(join(root, 'host_vars/cmp1.yml')),
      expect.stringContaining(join(root, 'group_vars/computes.yml')),
    ]);
    const fromGroup = await overrideWarnings(join(root, 'group_vars/computes.yml'), ['cluster_issuer_acme_email']);
    expect(fromGroup.map((w) => w.message)).toEqual([expect.stringContaining('host_vars/cmp1.yml')]);
  }, 60_000);
});
