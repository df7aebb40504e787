import type { Stats } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParsedCache } from '../../../../src/core/inventory/parsed-cache.js';
import type { YamlMapping } from '../../../../src/core/inventory/yaml-load.js';

const mapping = (text: string) => ({ text, values: {} }) as unknown as YamlMapping;
const stats = (ino: number, size: number) => ({ dev: 1, ino, size, mtimeMs: 1000.5, ctimeMs: 1000.5 }) as Stats;

describe('ParsedCache', () => {
  it('finds a parse by its text or by the unchanged file it was read from', () => {
    const cache = new ParsedCache(1000);
    const a = mapping('a: 1\n');
    cache.add(a, stats(7, 5));
    expect(cache.byText('a: 1\n')).toBe(a);
    expect(cache.byFile(stats(7, 5))).toBe(a);
    expect(cache.byFile({ ...stats(7, 5), ctimeMs: 1001 } as Stats)).toBeUndefined();
    expect(cache.byFile(stats(8, 5))).toBeUndefined();
  });

  it('keeps the newest parses up to its size, a parse used again counting as new', () => {
    const cache = new ParsedCache(100);
    const [a, b, c] = ['a', 'b', 'c'].map((k) => mapping(`${k}: ${'x'.repeat(37)}\n`));
    cache.add(a!);
    cache.add(b!);
    expect(cache.byText(a!.text)).toBe(a);
    cache.add(c!);
    expect(cache.byText(b!.text)).toBeUndefined();
    expect(cache.byText(a!.text)).toBe(a);
    expect(cache.byText(c!.text)).toBe(c);
  });
});
