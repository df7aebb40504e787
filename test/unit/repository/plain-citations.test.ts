import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

// Users have the README and the tool, not the documents the project was written from.
const CITATION = /\bSPEC\b|SPEC\.md|REFERENCE\.md|\bREFERENCE\b|DESIGN\.md|\bspec's\b/;

describe('user-facing text cites no document users do not have', () => {
  it('src/, templates/ and README.md name no SPEC, REFERENCE or DESIGN document', () => {
    const files = [...filesUnder(join(ROOT, 'src')), ...filesUnder(join(ROOT, 'templates')), join(ROOT, 'README.md')];
    const hits = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => (CITATION.test(line) ? `${relative(ROOT, file)}:${i + 1}: ${line.trim()}` : undefined))
        .filter((hit): hit is string => hit !== undefined),
    );
    expect(hits).toEqual([]);
  });
});
