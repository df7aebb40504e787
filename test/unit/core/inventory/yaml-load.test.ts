import { describe, expect, it } from 'vitest';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import { loadYaml } from '../../../../src/core/inventory/yaml-load.js';

const source = { what: 'the inventory', path: 'inv.yml' };

describe('loadYaml', () => {
  it('keeps !vault and !unsafe as AnsibleTagged and reports an unknown tag by line, never its text', () => {
    const loaded = loadYaml(
      "a: !unsafe 'x{{ y }}'\nb: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  3131\nc: !secret 'hidden-value-1'\n",
      source,
    );
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
    expect(() => loadYaml('a: 1\nb: "secret-text-99\n', source)).toThrow(
      /inv.yml is not valid YAML \(line \d+, column \d+\)/,
    );
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

  it('names the line and column of a duplicate key, the first line and a nested one included', () => {
    expect(() => loadYaml('a: 1\nb: 2\n\na: 3\n', source)).toThrow(/\(line 4, column 1\): duplicate key/);
    expect(() => loadYaml('a:\n  x: 1\n  x: 2\n', source)).toThrow(/\(line 3, column 3\): duplicate key/);
    expect(() => loadYaml('{a: 1, a: 2}\n', source)).toThrow(/\(line 1, column 8\): duplicate key/);
  });
});
