import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AREAS, GROUPS, groupTitle } from '../../../../src/core/areas/index.js';
import { COMMAND_OPTIONS } from '../../../../src/cli-options.js';
import { notOneOf } from '../../../../src/core/closest.js';

describe('the areas registry', () => {
  it('has one area per folder under core/areas, each exporting its group, title and checks', async () => {
    const folders = readdirSync(new URL('../../../../src/core/areas/', import.meta.url), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect([...GROUPS].sort()).toEqual(folders);
    for (const folder of folders) {
      const { area } = await import(
        /* @vite-ignore */ new URL(`../../../../src/core/areas/${folder}/index.ts`, import.meta.url).href
      );
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

  it('gives --only of doctor and serve the groups as its choices, from the one list', () => {
    for (const command of ['doctor', 'serve']) {
      const only = COMMAND_OPTIONS[command]!.flags.find((f) => f.name === 'only');
      expect(only).toMatchObject({ choices: GROUPS, list: true });
    }
    expect(AREAS.map((a) => a.group)).toEqual([...GROUPS]);
  });

  it('says "not one of these" in one wording, with the closest choice', () => {
    const error = notOneOf('--only', 'kub', GROUPS);
    expect(error.message).toBe(`--only "kub" is not one of: ${GROUPS.join(', ')}.`);
    expect(error.advice).toBe('Did you mean --only kube?');
  });
});
