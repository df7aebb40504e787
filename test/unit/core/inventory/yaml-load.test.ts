import { describe, expect, it } from 'vitest';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import { eachTopLevelEntry, loadYaml, type TopLevelShape } from '../../../../src/core/inventory/yaml-load.js';

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
