import { describe, expect, it } from 'vitest';
import { eachTopLevelEntry, type TopLevelShape } from '../../../../src/core/inventory/yaml-top-level.js';

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
