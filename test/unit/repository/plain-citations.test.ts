import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/** Every file under `dir`, leaving out dependencies and hidden run state (e.g. test/e2e/keystone/.state). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  if (!statSync(dir).isDirectory()) return [dir];
  return readdirSync(dir).flatMap((name) =>
    name === 'node_modules' || name.startsWith('.') ? [] : filesUnder(join(dir, name)),
  );
}

// Readers have the repository and the tool, not the documents the project was written from.
const CITATION = /\bSPEC\b|SPEC\.md|REFERENCE\.md|\bREFERENCE\b|DESIGN\.md|\bspec's\b/;
const SCANNED = ['src', 'templates', 'README.md', 'test', 'docs', 'scripts', 'deploy', '.ci'];

function citations(files: string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => (CITATION.test(line) ? `${relative(ROOT, file)}:${i + 1}: ${line.trim()}` : undefined))
      .filter((hit): hit is string => hit !== undefined),
  );
}

describe('the repository cites no document outside it', () => {
  it.each(['see SPEC.md', 'SPEC operational rule 1', 'as REFERENCE.md §2 says', 'DESIGN.md', "the spec's names"])(
    '"%s" is a citation',
    (line) => {
      expect(CITATION.test(line)).toBe(true);
    },
  );

  it.each(['spec.acme.solvers', "mode: 'spec'", 'docs/signin.md', 'RFC 8945 §4.3'])('"%s" is not', (line) => {
    expect(CITATION.test(line)).toBe(false);
  });

  it(`${SCANNED.join(', ')} name no SPEC, REFERENCE or DESIGN document`, () => {
    const files = SCANNED.flatMap((path) => filesUnder(join(ROOT, path))).filter((file) => file !== SELF);
    expect(files.some((f) => relative(ROOT, f).startsWith('test/'))).toBe(true);
    expect(files.some((f) => relative(ROOT, f).startsWith('.ci/'))).toBe(true);
    expect(citations(files)).toEqual([]);
  });
});
