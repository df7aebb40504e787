/**
 * `cloudgate render --names platform --json` on every hand-written platform fixture
 * (test/fixtures/render/platform/): the objects field by field (Secret values masked, as the command
 * prints them), the Helm releases, and the variable and severity of each finding.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli.js';

const DIR = new URL('../fixtures/render/platform/', import.meta.url).pathname;
const CASES = readdirSync(DIR)
  .filter((f) => f.endsWith('.yml') && !/\.(expected|helm|findings)\.yml$/.test(f))
  .map((f) => f.slice(0, -4))
  .sort();

interface DoctorCheck {
  id: string;
  details?: { rule?: string; variable?: string; severity?: string };
}
type Finding = { variable: string; severity: string; rule?: string };
const key = (f: Finding): Finding => ({
  variable: f.variable,
  severity: f.severity,
  ...(f.rule === 'naming' ? { rule: 'naming' } : {}),
});
const unique = (list: Finding[]) =>
  [...new Map(list.map((f) => [JSON.stringify(key(f)), key(f)])).values()].sort((a, b) =>
    JSON.stringify(a).localeCompare(JSON.stringify(b)),
  );

/** The command masks every Secret value. */
function masked(object: Record<string, unknown>): Record<string, unknown> {
  if (object.kind !== 'Secret' || !object.stringData) return object;
  return {
    ...object,
    stringData: Object.fromEntries(Object.keys(object.stringData as object).map((k) => [k, '********'])),
  };
}

describe('cloudgate render --names platform --json on the platform fixtures', () => {
  for (const c of CASES) {
    it(c, async () => {
      const result = await runCli(['render', '--inventory', `${DIR}${c}.yml`, '--names', 'platform', '--json']);
      const json = JSON.parse(result.stdout) as { objects: unknown[]; helm: unknown[]; findings: Finding[] };
      const expected = parseAllDocuments(readFileSync(`${DIR}${c}.expected.yml`, 'utf8')).map((d) =>
        masked(d.toJS() as Record<string, unknown>),
      );
      expect(json.objects).toEqual(expected);
      expect(json.helm).toEqual(
        existsSync(`${DIR}${c}.helm.yml`) ? parse(readFileSync(`${DIR}${c}.helm.yml`, 'utf8')) : [],
      );
      const want = parse(readFileSync(`${DIR}${c}.findings.yml`, 'utf8')) as Finding[];
      expect(unique(json.findings)).toEqual(unique(want));
      expect(result.code).toBe(want.some((f) => f.severity === 'error') ? 2 : 0);

      const doctor = await runCli([
        'doctor',
        '--only',
        'inventory',
        '--inventory',
        `${DIR}${c}.yml`,
        '--names',
        'platform',
        '--json',
      ]);
      const checks = (JSON.parse(doctor.stdout) as { checks: DoctorCheck[] }).checks;
      const byDoctor = checks
        .filter((k) => k.details?.rule)
        .map((k) => ({ rule: k.details!.rule!, variable: k.details!.variable ?? '', severity: k.details!.severity! }));
      expect(unique(byDoctor)).toEqual(unique(json.findings));
      expect(doctor.code).toBe(want.some((f) => f.severity === 'error') ? 1 : 0);
    });
  }
});
