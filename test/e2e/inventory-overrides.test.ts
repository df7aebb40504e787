/** doctor --only inventory names the host_vars/ and other groups' files whose values Ansible uses instead. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cloudgate-doctor-overrides-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

type Checks = { checks: { id: string; status: string; message: string }[] };

describe('doctor and variables set outside the inventory file', () => {
  const files = {
    'group_vars/all/certificates.yml': 'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n',
    'group_vars/controllers.yml': 'cluster_issuer_acme_email: other@example.com\n',
    'host_vars/ctl1.yml': 'cluster_issuer_type: self-signed\n',
  };

  it("given the file setup writes: warns of the host_vars file and the other group's file", async () => {
    const root = tree(files);
    const r = await runCli([
      'doctor',
      '--only',
      'inventory',
      '--inventory',
      join(root, 'group_vars/all/certificates.yml'),
      '--json',
    ]);
    const overridden = (JSON.parse(r.stdout) as Checks).checks.filter((c) => c.id.startsWith('inventory.overridden'));
    expect(overridden.map((c) => c.status)).toEqual(['warn', 'warn']);
    expect(overridden.map((c) => c.message).join('\n')).toContain(join(root, 'host_vars/ctl1.yml'));
    expect(overridden.map((c) => c.message).join('\n')).toContain(join(root, 'group_vars/controllers.yml'));
  });

  it("given the folder: warns of the host_vars file (the groups' files are read and compared already)", async () => {
    const root = tree(files);
    const r = await runCli(['doctor', '--only', 'inventory', '--inventory', root, '--json']);
    const checks = (JSON.parse(r.stdout) as Checks).checks;
    const overridden = checks.filter((c) => c.id.startsWith('inventory.overridden'));
    expect(overridden).toHaveLength(1);
    expect(overridden[0]!.message).toContain('host variables of ctl1');
    expect(checks.some((c) => c.id.startsWith('inventory.duplicate'))).toBe(true);
  });
});
