/**
 * Large inventories: a file over the piece size is parsed in pieces, and one over the lazy size is read
 * only for the wanted keys; both must give what one whole parse gives. Megabytes of YAML: seconds of work.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInventoryTree, updateInventoryText } from '../../../../src/core/inventory/inventory.js';
import { loadYaml, loadYamlMapping } from '../../../../src/core/inventory/yaml-load.js';

const source = { what: 'the inventory', path: 'inv.yml' };

describe('loadYamlMapping in pieces', () => {
  const big = (n: number, extra = '') => {
    let text = '---\n# header\n';
    for (let i = 0; i < n; i++) text += `app_${i}:\n  name: "app ${i}"\n  list: [a, b]\n`;
    return text + extra;
  };

  it('gives the same values and entries as one whole parse', () => {
    const text = big(7_000, 'cluster_issuer_type: acme\n');
    const mapping = loadYamlMapping(text, source);
    const whole = loadYaml(text, source).value as Record<string, unknown>;
    expect(Object.keys(mapping.values)).toHaveLength(7_001);
    expect(mapping.values).toEqual(whole);
    const entry = mapping.byKey.get('cluster_issuer_type')!;
    expect(text.slice(entry.start, entry.end)).toBe('cluster_issuer_type: acme\n');
  });

  it('a duplicate across pieces and an alias across pieces are decided by the whole parse', () => {
    expect(() => loadYamlMapping(big(7_000, 'app_1: again\n'), source)).toThrow(/duplicate key/);
    const aliased = `${big(7_000).replace('# header\n', '# header\nfirst: &shared anchored\n')}last: *shared\n`;
    expect(loadYamlMapping(aliased, source).values.last).toBe('anchored');
    // A second document is never read as part of the first.
    expect(() => loadYamlMapping(`first: 1\n${big(7_000)}`, source)).toThrow(/more than one document/);
  }, 120_000);

  it('reports warnings with the line in the whole file, beside the values of the file', async () => {
    const text = big(7_000, 'odd: !custom value\n');
    const file = join(mkdtempSync(join(tmpdir(), 'cloudgate-notices-')), 'inv.yml');
    writeFileSync(file, text);
    const tree = await readInventoryTree(file);
    expect(tree.files[0]!.notices[0]).toMatchObject({ code: 'TAG_RESOLVE_FAILED', line: text.split('\n').length - 1 });
  });
});

describe('loadYamlMapping of a large file, reading only the wanted keys', () => {
  const filler = (n: number, prefix = 'app') =>
    Array.from(
      { length: n },
      (_, i) => `${prefix}_${i}:\n  name: app-${i}\n  hosts: [a${i}.example.com]\n  note: "x # y"\n`,
    ).join('');
  const head = '---\n# certificates\ncluster_issuer_type: acme\ncluster_issuer_acme_email: "ops@example.com"  # team\n';
  const tail =
    'cluster_issuer_acme_rfc2136_tsig_secret_key: |\n  c2VjcmV0\nlast: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  3131\n';
  const big = head + filler(20000) + tail;
  const wanted = (key: string) => key.startsWith('cluster_issuer');

  it('returns the wanted keys with the values and places a whole parse gives, and no other key', () => {
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const lazy = loadYamlMapping(big, source, wanted);
    const whole = loadYamlMapping(big, source);
    expect(Object.keys(lazy.values)).toEqual([
      'cluster_issuer_type',
      'cluster_issuer_acme_email',
      'cluster_issuer_acme_rfc2136_tsig_secret_key',
    ]);
    for (const key of Object.keys(lazy.values)) {
      expect(lazy.values[key]).toEqual(whole.values[key]);
      expect(lazy.byKey.get(key)).toEqual(whole.byKey.get(key));
    }
    expect(lazy.insertAt).toBe(whole.insertAt);
  });

  it('falls back to the whole read where lines alone cannot tell: an alias, a duplicate key, a second document', () => {
    const withAlias =
      head +
      filler(20000).replace('app_3:\n', 'app_3: &solver http01\napp_3b:\n') +
      'cluster_issuer_acme_solver: *solver\n' +
      tail;
    expect(loadYamlMapping(withAlias, source, wanted).values.cluster_issuer_acme_solver).toBe('http01');
    expect(() => loadYamlMapping(big + 'app_7:\n  name: again\n', source, wanted)).toThrow(/duplicate key/);
    expect(() => loadYamlMapping(`${big}---\nx: 1\n`, source, wanted)).toThrow(/not valid YAML|more than one document/);
  });

  it('stays on the fast path with a %YAML directive, a "..." document end, or an anchor no alias elsewhere names', () => {
    const lazyKeys = (text: string) => Object.keys(loadYamlMapping(text, source, wanted).values);
    const expected = [
      'cluster_issuer_type',
      'cluster_issuer_acme_email',
      'cluster_issuer_acme_rfc2136_tsig_secret_key',
    ];
    expect(lazyKeys(`%YAML 1.1\n${big}`)).toEqual(expected);
    expect(lazyKeys(`${big}...\n# the end\n`)).toEqual(expected);
    expect(lazyKeys(big.replace('acme_email: "ops', 'acme_email: &mail "ops'))).toEqual(expected);
    // An alias elsewhere naming the anchor needs the whole read (the alias is inlined when the value changes).
    const aliased = big
      .replace('acme_email: "ops', 'acme_email: &mail "ops')
      .replace('app_5:\n  name: app-5', 'app_5:\n  name: *mail');
    expect(lazyKeys(aliased)).toContain('app_5');
    expect(
      updateInventoryText(aliased, { set: { cluster_issuer_acme_email: 'pki@example.com' }, remove: [] }),
    ).toContain('name: "ops@example.com"');
  });

  it('adds new keys before the "..." of a large file read lazily', () => {
    const ended = `${big}...\n`;
    const updated = updateInventoryText(ended, { set: { cluster_issuer_acme_solver: 'http01' }, remove: [] });
    expect(updated.endsWith('cluster_issuer_acme_solver: http01\n...\n')).toBe(true);
    expect(loadYamlMapping(updated, source, wanted).values.cluster_issuer_acme_solver).toBe('http01');
  });

  it('an update through it changes only the wanted key, byte for byte elsewhere', () => {
    const updated = updateInventoryText(big, { set: { cluster_issuer_acme_email: 'pki@example.com' }, remove: [] });
    expect(updated).toBe(big.replace('"ops@example.com"', 'pki@example.com'));
  });
});
