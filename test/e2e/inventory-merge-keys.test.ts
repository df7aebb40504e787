/** Merge keys (`<<`) in the inventory: doctor and render read what Ansible deploys, and say where it came from. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { createTestCA } from '../helpers/pki.js';

const indent = (pem: string) =>
  pem
    .trim()
    .split('\n')
    .map((l) => `  ${l}\n`)
    .join('');

function inventory(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cloudgate-merge-cli-')), 'certificates.yml');
  writeFileSync(file, text);
  return file;
}

describe('an inventory whose issuer comes through a merge key', () => {
  const text =
    '_site_defaults: &site\n  cluster_issuer_type: ca\n  cluster_issuer_name: corp\n<<: *site\ncluster_issuer_name: corp-issuer\n';

  it('doctor checks the merged issuer and names the key it came from', async () => {
    const file = inventory(text);
    const r = await runCli(['doctor', '--only', 'inventory', '--inventory', file, '--json']);
    const checks = (JSON.parse(r.stdout) as { checks: { id: string; status: string; message: string }[] }).checks;
    expect(checks.map((c) => c.id)).toContain('inventory.required.cluster_issuer_ca_certificate');
    const merged = checks.find((c) => c.id === 'inventory.merge-key.cluster_issuer_type')!;
    expect(merged.message).toContain('"_site_defaults"');
    expect(merged.message).toContain(file);
    expect(merged.message).toContain('"ca"');
    expect(r.code).toBe(1);
  });

  it('render shows the ClusterIssuer of the merged type, not acme', async () => {
    // Without the CA the role's ca task stops on the undefined certificate and applies nothing of it: said, exit 2.
    const stopped = await runCli(['render', '--inventory', inventory(text)]);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toContain('cluster_issuer_ca_certificate');
    expect(stopped.stdout).not.toContain('acme:');
    const ca = createTestCA();
    const withCa = `${text}cluster_issuer_ca_certificate: |\n${indent(ca.cert)}cluster_issuer_ca_private_key: |\n${indent(ca.key)}`;
    const r = await runCli(['render', '--inventory', inventory(withCa)]);
    expect(r.stdout).toMatch(/^kind: ClusterIssuer[\s\S]*?spec:\n {2}ca:/m);
    expect(r.stdout).not.toContain('acme:');
  });
});
