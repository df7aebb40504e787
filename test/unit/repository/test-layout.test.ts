/**
 * Tests mirror what they test, path for path: `test/<unit|integration>/<path under src>/<name>.test.ts(x)`
 * tests `src/<path>/<name>.ts(x)`; where one file has several test files, each is `<name>.<aspect>.test.ts(x)`.
 * Three roots mirror something else: `scripts/` (the scripts/ folder), `helpers/` (test/helpers/, the
 * certificate builder other tests trust) and `repository/` (checks of the repository itself: README,
 * citations, this layout). test/e2e/ is by command and feature and is not checked here.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TEST_FILE = /^(?<name>[^.]+)(?:\.(?<aspect>[a-z0-9]+(?:-[a-z0-9]+)*))?\.test\.tsx?$/;
const MIRRORS: [prefix: string, folder: string, extensions: string[]][] = [
  ['scripts/', 'scripts', ['.mjs', '.js', '.ts']],
  ['helpers/', 'test/helpers', ['.ts', '.tsx']],
  ['', 'src', ['.ts', '.tsx']],
];

/** The files a test file may mirror (one must exist), 'repository' for the checks of the repository, or why the name breaks the rule. */
function mirroredBy(path: string): string[] | 'repository' | { wrongName: string } {
  if (path.startsWith('repository/')) return 'repository';
  const slash = path.lastIndexOf('/');
  const match = TEST_FILE.exec(path.slice(slash + 1));
  if (!match)
    return {
      wrongName: 'not <name>.test.ts(x) or <name>.<aspect>.test.ts(x), aspect in lower-case words joined by "-"',
    };
  const [prefix, folder, extensions] = MIRRORS.find(([p]) => path.startsWith(p))!;
  const dir = path.slice(prefix.length, slash + 1);
  return extensions.map((ext) => `${folder}/${dir}${match.groups!.name}${ext}`);
}

/** Whether the file exists under exactly this name (also where the file system ignores case). */
function exists(path: string): boolean {
  return existsSync(dirname(path)) && readdirSync(dirname(path)).includes(basename(path));
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('test files mirror the files they test', () => {
  it.each([
    ['core/tls/checks.test.ts', ['src/core/tls/checks.ts', 'src/core/tls/checks.tsx']],
    ['core/tls/checks.chain-complete.test.ts', ['src/core/tls/checks.ts', 'src/core/tls/checks.tsx']],
    ['ui/ink/setup/SetupApp.walkthrough.test.tsx', ['src/ui/ink/setup/SetupApp.ts', 'src/ui/ink/setup/SetupApp.tsx']],
    [
      'scripts/check-layers.test.ts',
      ['scripts/check-layers.mjs', 'scripts/check-layers.js', 'scripts/check-layers.ts'],
    ],
    ['helpers/pki.test.ts', ['test/helpers/pki.ts', 'test/helpers/pki.tsx']],
    ['repository/readme.test.ts', 'repository'],
  ])('%s mirrors %j', (path, expected) => {
    expect(mirroredBy(path)).toEqual(expected);
  });

  it.each(['core/tls/Checks.Chain_Complete.test.ts', 'core/tls/checks.spec.ts', 'core/tls/checks.a.b.test.ts'])(
    '%s breaks the naming rule',
    (path) => {
      expect(mirroredBy(path)).toHaveProperty('wrongName');
    },
  );

  it('every test file under test/unit and test/integration names an existing file (case included)', () => {
    const offenders: string[] = [];
    for (const tree of ['test/unit', 'test/integration']) {
      for (const file of files(join(ROOT, tree))) {
        const path = relative(join(ROOT, tree), file);
        const target = mirroredBy(path);
        if (target === 'repository') continue;
        if (!Array.isArray(target)) offenders.push(`${tree}/${path}: ${target.wrongName}`);
        else if (!target.some((t) => exists(join(ROOT, t))))
          offenders.push(`${tree}/${path}: no ${target.join(' or ')}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
