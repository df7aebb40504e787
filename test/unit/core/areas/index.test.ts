import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AREAS, GROUPS, groupsOf, groupTitle } from '../../../../src/core/areas/index.js';
import { UsageError } from '../../../../src/core/errors.js';

describe('the areas registry', () => {
  it('has one area per folder under core/areas, each exporting its group, title and checks', async () => {
    const folders = readdirSync(new URL('../../../../src/core/areas/', import.meta.url), { withFileTypes: true })
      .filter((e) => e.isDirectory()).map((e) => e.name).sort();
    expect([...GROUPS].sort()).toEqual(folders);
    for (const folder of folders) {
      const { area } = await import(/* @vite-ignore */ new URL(`../../../../src/core/areas/${folder}/index.ts`, import.meta.url).href);
      expect(area.group).toBe(folder);
      expect(area.title.length).toBeGreaterThan(3);
      expect(typeof area.provideChecks).toBe('function');
      expect(AREAS).toContain(area);
    }
  });

  it('names each group for reports', () => {
    expect(groupTitle('signin')).toBe('Federated sign-in chain');
    expect(groupTitle('kube')).toBe('Cluster (kubectl)');
    expect(groupTitle('unknown-group')).toBe('unknown-group');
  });

  it('refuses an --only that names no group, listing the groups (doctor and serve alike)', () => {
    expect(groupsOf(['tls', 'kube'])).toEqual(['tls', 'kube']);
    expect(groupsOf([])).toEqual([]);
    expect(() => groupsOf(['tls', 'nope'])).toThrow(UsageError);
    expect(() => groupsOf(['nope'])).toThrow(/Unknown check group: nope/);
  });
});
