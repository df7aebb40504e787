import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
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
      set: { cluster_issuer_acme_email: 'pki@example.com', cluster_issuer_acme_rfc2136_tsig_key_name: 'cert-manager' },
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
    expect(
      updateInventoryText(text, { set: { cluster_issuer_type: 'acme', kube_vip_address: '10.10.0.5' }, remove: [] }),
    ).toBe(text);
  });

  it('removes keys and appends new ones with a help comment, keeping everything else', async () => {
    const text = await readFile(join(FIXTURES, 'realistic.yml'), 'utf8');
    const out = updateInventoryText(text, {
      set: { cluster_issuer_acme_solver: 'cloudflare', cluster_issuer_acme_cloudflare_api_token: 'tok-123456' },
      remove: [
        'cluster_issuer_acme_rfc2136_nameserver',
        'cluster_issuer_acme_rfc2136_tsig_algorithm',
        'cluster_issuer_acme_rfc2136_tsig_key_name',
        'cluster_issuer_acme_rfc2136_tsig_secret_key',
      ],
    });
    expect(out).not.toContain('rfc2136_');
    expect(out).toContain('cluster_issuer_acme_solver: cloudflare\n');
    expect(
      out.endsWith(
        '# trailing comment at the end\n\n# API token allowed to edit the zone\ncluster_issuer_acme_cloudflare_api_token: tok-123456\n',
      ),
    ).toBe(true);
    const { removed } = changedLines(text, out);
    expect(removed.every((l) => l.includes('rfc2136'))).toBe(true);
    expect(out).toContain('ntp_servers: [\'0.pool.ntp.org\',   "1.pool.ntp.org"]');
  });

  it('writes multi-line PEM values as literal blocks and replaces them whole', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const first = updateInventoryText('a: 1\n', {
      set: { cluster_issuer_ca_certificate: pem, cluster_issuer_type: 'ca' },
      remove: [],
    });
    expect(first).toContain('cluster_issuer_ca_certificate: |\n  -----BEGIN CERTIFICATE-----\n  MIIB\n');
    expect(parseInventory(first, 'x').cluster_issuer_ca_certificate).toBe(pem);
    const second = updateInventoryText(first, {
      set: { cluster_issuer_ca_certificate: pem.replace('MIIB', 'MIIC') },
      remove: [],
    });
    expect(parseInventory(second, 'x')).toMatchObject({
      a: 1,
      cluster_issuer_type: 'ca',
      cluster_issuer_ca_certificate: pem.replace('MIIB', 'MIIC'),
    });
  });

  it('quotes strings that YAML 1.1 (Ansible) would read as booleans', () => {
    const out = updateInventoryText('', { set: { cluster_issuer_venafi_zone: 'yes' }, remove: [] });
    expect(parseInventory(out, 'x').cluster_issuer_venafi_zone).toBe('yes');
  });

  it('renames a key in place: its line, comments and value stay; a value set for the new key replaces the entry', () => {
    const text =
      '# mine\ncluster_issuer_type: acme\ncluster_issuer_acme_clouddnsb_region: eu-west-1  # Ireland\nother: 1\ncluster_issuer_acme_solver: clouddnsb\n';
    const renamed = updateInventoryText(text, {
      set: { cluster_issuer_acme_solver: 'route53' },
      remove: [],
      rename: { cluster_issuer_acme_clouddnsb_region: 'cluster_issuer_acme_route53_region' },
    });
    expect(renamed).toBe(
      '# mine\ncluster_issuer_type: acme\ncluster_issuer_acme_route53_region: eu-west-1  # Ireland\nother: 1\ncluster_issuer_acme_solver: route53\n',
    );
    const reset = updateInventoryText(text, {
      set: { cluster_issuer_acme_route53_region: 'us-east-1' },
      remove: [],
      rename: { cluster_issuer_acme_clouddnsb_region: 'cluster_issuer_acme_route53_region' },
    });
    expect(parseInventory(reset, 'x')).toEqual({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_route53_region: 'us-east-1',
      other: 1,
      cluster_issuer_acme_solver: 'clouddnsb',
    });
    expect(reset.indexOf('cluster_issuer_acme_route53_region')).toBeLessThan(reset.indexOf('other: 1'));
    // A key whose new name is taken already is not renamed (the plan removes it instead).
    const both = 'cluster_issuer_acme_clouddnsb_region: a\ncluster_issuer_acme_route53_region: b\n';
    expect(
      updateInventoryText(both, {
        set: {},
        remove: [],
        rename: { cluster_issuer_acme_clouddnsb_region: 'cluster_issuer_acme_route53_region' },
      }),
    ).toBe(both);
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
      'site/group_vars/all/certificates.yml',
      'site/group_vars/all/network.yaml',
      'site/group_vars/controllers/certificates.yml',
    ]);
    expect(tree.conflicts).toEqual([
      {
        winner: 'group_vars/controllers/certificates.yml',
        name: 'cluster_issuer_acme_email',
        files: ['group_vars/all/certificates.yml', 'group_vars/controllers/certificates.yml'],
      },
    ]);
  });

  it('reads the YAML files of a folder without group_vars (e.g. group_vars/all itself)', async () => {
    const tree = await readInventoryTree(join(FIXTURES, 'site/group_vars/all'));
    expect(tree.files.map((f) => f.path.slice(FIXTURES.length))).toEqual([
      'site/group_vars/all/certificates.yml',
      'site/group_vars/all/network.yaml',
    ]);
    expect(tree.conflicts).toEqual([]);
  });
});

describe('updateInventoryText keeps the file loadable', () => {
  it('writes Ansible tags back and keeps an existing vault block byte for byte', () => {
    const vault = 'cluster_issuer_acme_cloudflare_api_token: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\n';
    const out = updateInventoryText(`cluster_issuer_acme_email: a@example.com\n${vault}`, {
      set: {
        cluster_issuer_acme_email: 'b@example.com',
        cluster_issuer_venafi_password: new AnsibleTagged('!unsafe', "p{{ 'x' }}"),
      },
      remove: [],
    });
    expect(out).toContain(vault);
    expect(out).toMatch(/cluster_issuer_venafi_password: !unsafe/);
    expect(parseInventory(out, 'x').cluster_issuer_venafi_password).toEqual(new AnsibleTagged('!unsafe', "p{{ 'x' }}"));
  });

  it('replacing a vaulted value with another vaulted value is a change', () => {
    const text = 'cluster_issuer_acme_cloudflare_api_token: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\n';
    const out = updateInventoryText(text, {
      set: {
        cluster_issuer_acme_cloudflare_api_token: new AnsibleTagged('!vault', '$ANSIBLE_VAULT;1.1;AES256\n6364\n'),
      },
      remove: [],
    });
    expect(out).toContain('6364');
  });

  it('inlines the value of a removed anchor at its aliases (scalars, maps, tagged values)', () => {
    const text =
      'cluster_issuer_acme_cloudflare_api_token: &tok abc\ncluster_issuer_acme_cloudflare_email: &m !unsafe "x{{y}}"\n' +
      'atmosphere_ingress_annotations: &ann\n  a: 1\nother: *tok\nlist: [*tok, *m]\nmerged:\n  <<: *ann\n  b: 2\n';
    const out = updateInventoryText(text, {
      set: {},
      remove: [
        'cluster_issuer_acme_cloudflare_api_token',
        'cluster_issuer_acme_cloudflare_email',
        'atmosphere_ingress_annotations',
      ],
    });
    const values = parseInventory(out, 'x');
    expect(values).toEqual({
      other: 'abc',
      list: ['abc', new AnsibleTagged('!unsafe', 'x{{y}}')],
      merged: { a: 1, b: 2 },
    });
  });

  it('refuses (exit 2) naming the alias when the anchored value cannot be written inline', () => {
    const text = 'cluster_issuer_acme_cloudflare_api_token: &when !!set {a, b}\nother: *when\n';
    expect(() => updateInventoryText(text, { set: {}, remove: ['cluster_issuer_acme_cloudflare_api_token'] })).toThrow(
      /alias \*when/,
    );
  });

  it('adds keys before a "..." document end', () => {
    const out = updateInventoryText('---\na: 1\n...\n', { set: { cluster_issuer_type: 'acme' }, remove: [] });
    expect(out.trimEnd().endsWith('...')).toBe(true);
    expect(parseInventory(out, 'x')).toEqual({ a: 1, cluster_issuer_type: 'acme' });
    const noNewline = updateInventoryText('a: 1\n...', { set: { cluster_issuer_type: 'acme' }, remove: [] });
    expect(parseInventory(noNewline, 'x')).toEqual({ a: 1, cluster_issuer_type: 'acme' });
  });
});
