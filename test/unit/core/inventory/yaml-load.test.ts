import { describe, expect, it } from 'vitest';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import { inventoryNotices, parseInventory, updateInventoryText } from '../../../../src/core/inventory/inventory.js';
import { validate } from '../../../../src/core/config/validate.js';
import { eachTopLevelEntry, loadYaml, loadYamlMapping, type TopLevelShape } from '../../../../src/core/inventory/yaml-load.js';

const source = { what: 'the inventory', path: 'inv.yml' };

describe('loadYaml', () => {
  it('keeps !vault and !unsafe as AnsibleTagged and reports an unknown tag by line, never its text', () => {
    const loaded = loadYaml("a: !unsafe 'x{{ y }}'\nb: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  3131\nc: !secret 'hidden-value-1'\n", source);
    const value = loaded.value as Record<string, unknown>;
    expect(value.a).toEqual(new AnsibleTagged('!unsafe', 'x{{ y }}'));
    expect(value.b).toEqual(new AnsibleTagged('!vault', '$ANSIBLE_VAULT;1.1;AES256\n3131\n'));
    expect(loaded.notices).toHaveLength(1);
    expect(loaded.notices[0]).toMatchObject({ code: 'TAG_RESOLVE_FAILED', line: 5 });
    expect(JSON.stringify(loaded.notices)).not.toContain('hidden-value-1');
  });

  it('keeps every digit of a large integer, and numbers that fit stay numbers', () => {
    const value = loadYaml('big: 12345678901234567890\nsmall: 42\n', source).value;
    expect(value).toEqual({ big: '12345678901234567890', small: 42 });
  });

  it('a syntax error names the line, not the text', () => {
    expect(() => loadYaml('a: 1\nb: "secret-text-99\n', source)).toThrow(/inv.yml is not valid YAML \(line \d+, column \d+\)/);
    try {
      loadYaml('a: 1\nb: "secret-text-99\n', source);
    } catch (error) {
      expect((error as Error).message).not.toContain('secret-text-99');
    }
  });

  it('finds duplicate keys, nested ones included', () => {
    expect(() => loadYaml('a: 1\nb: 2\na: 3\n', source)).toThrow(/duplicate key.*|line 3/);
    expect(() => loadYaml('a:\n  x: 1\n  x: 2\n', source)).toThrow(/duplicate key/);
  });
});

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

  it('reports warnings with the line in the whole file', () => {
    const text = big(7_000, 'odd: !custom value\n');
    const values = parseInventory(text, 'inv.yml');
    expect(inventoryNotices(values)[0]).toMatchObject({ code: 'TAG_RESOLVE_FAILED', line: text.split('\n').length - 1 });
  });
});

describe('updateInventoryText keeps the file loadable', () => {
  it('writes Ansible tags back and keeps an existing vault block byte for byte', () => {
    const vault = 'cluster_issuer_acme_dnsc_api_token: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\n';
    const out = updateInventoryText(`cluster_issuer_acme_email: a@example.com\n${vault}`, {
      set: { cluster_issuer_acme_email: 'b@example.com', cluster_issuer_commercialca_password: new AnsibleTagged('!unsafe', "p{{ 'x' }}") },
      remove: [],
    });
    expect(out).toContain(vault);
    expect(out).toMatch(/cluster_issuer_commercialca_password: !unsafe/);
    expect(parseInventory(out, 'x').cluster_issuer_commercialca_password).toEqual(new AnsibleTagged('!unsafe', "p{{ 'x' }}"));
  });

  it('replacing a vaulted value with another vaulted value is a change', () => {
    const text = 'cluster_issuer_acme_dnsc_api_token: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162\n';
    const out = updateInventoryText(text, { set: { cluster_issuer_acme_dnsc_api_token: new AnsibleTagged('!vault', '$ANSIBLE_VAULT;1.1;AES256\n6364\n') }, remove: [] });
    expect(out).toContain('6364');
  });

  it('inlines the value of a removed anchor at its aliases (scalars, maps, tagged values)', () => {
    const text = 'cluster_issuer_acme_dnsc_api_token: &tok abc\ncluster_issuer_acme_dnsc_email: &m !unsafe "x{{y}}"\n'
      + 'platform_ingress_annotations: &ann\n  a: 1\nother: *tok\nlist: [*tok, *m]\nmerged:\n  <<: *ann\n  b: 2\n';
    const out = updateInventoryText(text, { set: {}, remove: ['cluster_issuer_acme_dnsc_api_token', 'cluster_issuer_acme_dnsc_email', 'platform_ingress_annotations'] });
    const values = parseInventory(out, 'x');
    expect(values).toEqual({ other: 'abc', list: ['abc', new AnsibleTagged('!unsafe', 'x{{y}}')], merged: { a: 1, b: 2 } });
  });

  it('refuses (exit 2) naming the alias when the anchored value cannot be written inline', () => {
    const text = 'cluster_issuer_acme_dnsc_api_token: &when 2024-01-01\nother: *when\n';
    expect(() => updateInventoryText(text, { set: {}, remove: ['cluster_issuer_acme_dnsc_api_token'] })).toThrow(/alias \*when/);
  });

  it('adds keys before a "..." document end', () => {
    const out = updateInventoryText('---\na: 1\n...\n', { set: { cluster_issuer_type: 'acme' }, remove: [] });
    expect(out.trimEnd().endsWith('...')).toBe(true);
    expect(parseInventory(out, 'x')).toEqual({ a: 1, cluster_issuer_type: 'acme' });
    const noNewline = updateInventoryText('a: 1\n...', { set: { cluster_issuer_type: 'acme' }, remove: [] });
    expect(parseInventory(noNewline, 'x')).toEqual({ a: 1, cluster_issuer_type: 'acme' });
  });
});

describe('validate: types and values cloudgate cannot check', () => {
  const rules = (values: Record<string, unknown>) => validate(values).map((f) => `${f.rule}:${f.variable ?? ''}:${f.severity}`);

  it('a date, a set or a number where text is expected is invalid-type, not unset', () => {
    const date = loadYaml('cluster_issuer_type: 2024-01-01\n', source).value as Record<string, unknown>;
    expect(rules(date)).toContain('invalid-type:cluster_issuer_type:error');
    const set = loadYaml('cluster_issuer_type: acme\ncluster_issuer_acme_email: !!set {a, b}\n', source).value as Record<string, unknown>;
    expect(rules(set)).toContain('invalid-type:cluster_issuer_acme_email:error');
    expect(rules(set)).not.toContain('acme-email-required:cluster_issuer_acme_email:error');
    expect(rules({ cluster_issuer_type: 5 })).toContain('invalid-type:cluster_issuer_type:error');
    expect(rules({ platform_ingress_annotations: 'text' })).toContain('invalid-type:platform_ingress_annotations:error');
  });

  it('vaulted values and Jinja expressions are "not checked" (info), never malformed', () => {
    const found = validate({
      cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'dnsc',
      cluster_issuer_acme_email: '{{ vault_acme_email }}',
      cluster_issuer_acme_dnsc_api_token: new AnsibleTagged('!vault', '$ANSIBLE_VAULT;1.1;AES256\n31\n'),
    });
    const notChecked = found.filter((f) => f.rule === 'not-checked');
    expect(notChecked.map((f) => [f.variable, f.severity])).toEqual([
      ['cluster_issuer_acme_email', 'info'], ['cluster_issuer_acme_dnsc_api_token', 'info'],
    ]);
    expect(notChecked.find((f) => f.variable === 'cluster_issuer_acme_dnsc_api_token')?.message).toContain('not checked (vaulted)');
    expect(found.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('an !unsafe value is checked as the literal text it is', () => {
    expect(rules({ cluster_issuer_type: 'acme', cluster_issuer_acme_email: new AnsibleTagged('!unsafe', 'not-an-email') }))
      .toContain('invalid-email:cluster_issuer_acme_email:error');
  });
});

describe('loadYamlMapping of a large file, reading only the wanted keys', () => {
  const filler = (n: number, prefix = 'app') => Array.from({ length: n }, (_, i) => `${prefix}_${i}:\n  name: app-${i}\n  hosts: [a${i}.example.com]\n  note: "x # y"\n`).join('');
  const head = '---\n# certificates\ncluster_issuer_type: acme\ncluster_issuer_acme_email: "ops@example.com"  # team\n';
  const tail = 'cluster_issuer_acme_rfc2136_tsig_secret_key: |\n  c2VjcmV0\nlast: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  3131\n';
  const big = head + filler(20000) + tail;
  const wanted = (key: string) => key.startsWith('cluster_issuer');

  it('returns the wanted keys with the values and places a whole parse gives, and no other key', () => {
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const lazy = loadYamlMapping(big, source, wanted);
    const whole = loadYamlMapping(big, source);
    expect(Object.keys(lazy.values)).toEqual(['cluster_issuer_type', 'cluster_issuer_acme_email', 'cluster_issuer_acme_rfc2136_tsig_secret_key']);
    for (const key of Object.keys(lazy.values)) {
      expect(lazy.values[key]).toEqual(whole.values[key]);
      expect(lazy.byKey.get(key)).toEqual(whole.byKey.get(key));
    }
    expect(lazy.insertAt).toBe(whole.insertAt);
  });

  it('falls back to the whole read where lines alone cannot tell: an alias, a duplicate key, a second document', () => {
    const withAlias = head + filler(20000).replace('app_3:\n', 'app_3: &solver http01\napp_3b:\n') + 'cluster_issuer_acme_solver: *solver\n' + tail;
    expect(loadYamlMapping(withAlias, source, wanted).values.cluster_issuer_acme_solver).toBe('http01');
    expect(() => loadYamlMapping(big + 'app_7:\n  name: again\n', source, wanted)).toThrow(/duplicate key/);
    expect(() => loadYamlMapping(`${big}---\nx: 1\n`, source, wanted)).toThrow(/not valid YAML|more than one document/);
  });

  it('stays on the fast path with a %YAML directive, a "..." document end, or an anchor no alias elsewhere names', () => {
    const lazyKeys = (text: string) => Object.keys(loadYamlMapping(text, source, wanted).values);
    const expected = ['cluster_issuer_type', 'cluster_issuer_acme_email', 'cluster_issuer_acme_rfc2136_tsig_secret_key'];
    expect(lazyKeys(`%YAML 1.1\n${big}`)).toEqual(expected);
    expect(lazyKeys(`${big}...\n# the end\n`)).toEqual(expected);
    expect(lazyKeys(big.replace('acme_email: "ops', 'acme_email: &mail "ops'))).toEqual(expected);
    // An alias elsewhere naming the anchor needs the whole read (the alias is inlined when the value changes).
    const aliased = big.replace('acme_email: "ops', 'acme_email: &mail "ops').replace('app_5:\n  name: app-5', 'app_5:\n  name: *mail');
    expect(lazyKeys(aliased)).toContain('app_5');
    expect(updateInventoryText(aliased, { set: { cluster_issuer_acme_email: 'pki@example.com' }, remove: [] })).toContain('name: "ops@example.com"');
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

describe('eachTopLevelEntry', () => {
  const keysOf = (text: string): string[] | false => {
    const keys: string[] = [];
    return eachTopLevelEntry(text, (entry) => void keys.push(entry.key)) && keys;
  };

  it('reads the head (comments, a %YAML directive, one ---) and a closing ... followed by comments', () => {
    expect(keysOf('%YAML 1.1\n# head\n---\na: 1\n"b c": 2\n\'d\': [3]\n...\n# end\n')).toEqual(['a', 'b c', 'd']);
    const shape: TopLevelShape = {};
    const text = 'a: 1\nb:\n  - x\n...\n';
    const ends: number[] = [];
    expect(eachTopLevelEntry(text, (entry) => void ends.push(entry.end), shape)).toBe(true);
    expect(shape.documentEnd).toBe(text.indexOf('...'));
    expect(ends).toEqual([5, text.indexOf('...')]);
  });

  it('leaves to a parse what lines alone cannot tell', () => {
    expect(keysOf('%YAML 1.1\na: 1\n')).toBe(false); // a directive without ---
    expect(keysOf('%TAG ! tag:example.com,2000:\n---\na: !vault x\n')).toBe(false);
    expect(keysOf('a: 1\n...\nb: 2\n')).toBe(false);
    expect(keysOf('a: 1\n---\nb: 2\n')).toBe(false);
    expect(keysOf('  a: 1\nb: 2\n')).toBe(false);
    expect(keysOf('{a: 1}\n')).toBe(false);
  });

  it('finds a key written twice, quoted or not, among many', () => {
    const many = Array.from({ length: 50000 }, (_, i) => `key_${i}: ${i}\n`).join('');
    expect(keysOf(many)).toHaveLength(50000);
    expect(keysOf(`${many}key_123: again\n`)).toBe(false);
    expect(keysOf(`${many}"key_4567": again\n`)).toBe(false);
  });
});
