import { describe, expect, it } from 'vitest';
import { asRecord, isOneOf, isRecord, memberOf, mergeRecords, numberOf, textsOf } from '../../../src/core/records.js';

describe('records', () => {
  it.each([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['x', false],
    [3, false],
  ])('isRecord(%j) is %s', (value, expected) => {
    expect(isRecord(value)).toBe(expected);
    expect(asRecord(value) !== undefined).toBe(expected);
  });

  it('reads a finite number, and the strings of a list', () => {
    expect([numberOf(3), numberOf('3'), numberOf(Number.NaN), numberOf(undefined)]).toEqual([
      3,
      undefined,
      undefined,
      undefined,
    ]);
    expect(textsOf(['a.example', 7, null, 'b.example'])).toEqual(['a.example', 'b.example']);
    expect(textsOf('a.example')).toEqual([]);
  });

  it('reads a member only of a mapping', () => {
    expect(memberOf({ protocol: { mapping_id: 'm' } }, 'protocol')).toEqual({ mapping_id: 'm' });
    expect(memberOf(['protocol'], '0')).toBeUndefined();
    expect(memberOf(undefined, 'x')).toBeUndefined();
  });

  it('merges nested mappings key by key and replaces anything else, as combine(recursive=True)', () => {
    expect(mergeRecords({ groupName: 'g', a: { b: 1, c: [1] } }, { a: { c: [2], d: 3 }, e: null })).toEqual({
      groupName: 'g',
      a: { b: 1, c: [2], d: 3 },
      e: null,
    });
    expect(mergeRecords({ a: 1 }, 'not a mapping')).toEqual({ a: 1 });
  });

  it.each([
    ['zsh', true],
    ['ksh', false],
    [undefined, false],
    [1, false],
  ])('isOneOf(bash|zsh|fish, %j) is %s', (value, expected) => {
    const shells = ['bash', 'zsh', 'fish'] as const;
    expect(isOneOf(shells, value)).toBe(expected);
  });
});
