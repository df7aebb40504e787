/**
 * Inventories in the platform's own names (test/fixtures/render/platform/<case>.yml) against the objects
 * the platform's role applies, written by hand from the role's tasks (<case>.expected.yml, <case>.helm.yml)
 * and what goes wrong (<case>.findings.yml: variable and severity of each finding). Custom names,
 * environments, webhook renames, empty and null values, templates, and every way the deployment stops.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { namesView } from '../../../../src/core/config/neutral-names.js';
import { parseInventory } from '../../../../src/core/inventory/inventory.js';
import { judgeValues } from '../../../../src/core/render/judge.js';

const DIR = new URL('../../../fixtures/render/platform/', import.meta.url).pathname;
const CASES = readdirSync(DIR)
  .filter((f) => f.endsWith('.yml') && !/\.(expected|helm|findings)\.yml$/.test(f))
  .map((f) => f.slice(0, -4))
  .sort();

export interface FindingKey {
  variable: string;
  severity: string;
  rule?: string;
}
const key = (f: { variable?: string; severity: string; rule?: string }): FindingKey => ({
  variable: f.variable ?? '',
  severity: f.severity,
  ...(f.rule === 'naming' ? { rule: 'naming' } : {}),
});
const unique = (list: FindingKey[]) =>
  [...new Map(list.map((f) => [JSON.stringify(f), f])).values()].sort((a, b) =>
    JSON.stringify(a).localeCompare(JSON.stringify(b)),
  );

describe("render fixtures in the platform's names: what the role applies, field by field", () => {
  it('covers custom names, both webhooks renamed, empty, null and templated values, and each way the deployment stops', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    for (const c of CASES)
      expect(existsSync(`${DIR}${c}.expected.yml`) && existsSync(`${DIR}${c}.findings.yml`), c).toBe(true);
  });

  for (const c of CASES) {
    it(c, () => {
      const values = parseInventory(readFileSync(`${DIR}${c}.yml`, 'utf8'), `${c}.yml`);
      const view = namesView(values, `${c}.yml`);
      // The one judgement render, setup's review and doctor print: the inventory rules and the render's findings.
      const rendered = judgeValues(view.values, { profile: view.profile, foreign: view.foreign, meant: view.meant });
      expect(rendered.objects.map((o) => o.object)).toEqual(
        parseAllDocuments(readFileSync(`${DIR}${c}.expected.yml`, 'utf8')).map((d) => d.toJS()),
      );
      expect(rendered.helm).toEqual(
        existsSync(`${DIR}${c}.helm.yml`) ? parse(readFileSync(`${DIR}${c}.helm.yml`, 'utf8')) : [],
      );
      const findings = [...view.naming, ...rendered.findings];
      expect(unique(findings.map(key))).toEqual(
        unique(parse(readFileSync(`${DIR}${c}.findings.yml`, 'utf8')) as FindingKey[]),
      );
    });
  }
});
