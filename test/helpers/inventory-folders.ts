/**
 * The inventory folders of test/fixtures/inventories/: each `<case>/` holds `inventory/` (a hosts file,
 * group_vars/ with several files, host_vars/, vaults), `case.yml` (why, the command's extra arguments
 * and environment, the exit code and every finding expected as rule, variable and severity),
 * `expected.yml` (the objects the role applies, Secret values masked) and `helm.yml` (its releases).
 * A case is copied to a private folder first: vault password files must be private (0600), which git
 * does not keep.
 */
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export const FOLDERS = new URL('../fixtures/inventories/', import.meta.url).pathname;
/** cloudgate's own test role, installed under the platform's name (test/fixtures/platform-role/). */
export const TEST_ROLE = new URL('../fixtures/platform-role/', import.meta.url).pathname;

export interface FindingKey {
  rule: string;
  variable: string;
  severity: string;
}

export interface FolderCase {
  name: string;
  /** What the case shows (the comment at the top of case.yml). */
  why: string;
  args: string[];
  env: Record<string, string>;
  inventory: string;
  exit: number;
  findings: FindingKey[];
  objects: unknown[];
  helm: unknown[];
}

export function folderCases(): FolderCase[] {
  return readdirSync(FOLDERS)
    .filter((name) => existsSync(join(FOLDERS, name, 'case.yml')))
    .sort()
    .map((name) => {
      const text = readFileSync(join(FOLDERS, name, 'case.yml'), 'utf8');
      const c = (parse(text) ?? {}) as Partial<FolderCase> & { findings?: FindingKey[] }; // case.yml is written as this shape
      const objects = parseAllDocuments(readFileSync(join(FOLDERS, name, 'expected.yml'), 'utf8'))
        .map((d) => d.toJS() as unknown)
        .filter((o) => o !== null);
      const helm = existsSync(join(FOLDERS, name, 'helm.yml'))
        ? (parse(readFileSync(join(FOLDERS, name, 'helm.yml'), 'utf8')) as unknown[])
        : [];
      return {
        name,
        why: text.split('\n')[0].replace(/^#\s*/, ''),
        args: c.args ?? [],
        env: c.env ?? {},
        inventory: c.inventory ?? 'inventory',
        exit: c.exit ?? 0,
        findings: (c.findings ?? []).map(keyOf),
        objects,
        helm,
      };
    });
}

/** A private copy of the case (vault password files made 0600); remove it with `rmSync(dir, ...)`. */
export function copyCase(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'cloudgate-folders-')), name);
  cpSync(join(FOLDERS, name), dir, { recursive: true });
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.startsWith('vault-pass')) chmodSync(path, 0o600);
    }
  };
  walk(dir);
  return dir;
}

export function removeCase(dir: string): void {
  rmSync(join(dir, '..'), { recursive: true, force: true });
}

export const keyOf = (f: { rule: string; variable?: string | null; severity: string }): FindingKey => ({
  rule: f.rule,
  variable: f.variable ?? '-',
  severity: f.severity,
});

export const keySet = (list: FindingKey[]): FindingKey[] =>
  [...new Map(list.map((f) => [JSON.stringify(f), f])).values()].sort((a, b) =>
    JSON.stringify(a).localeCompare(JSON.stringify(b)),
  );
