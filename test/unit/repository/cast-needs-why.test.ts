/**
 * The local lint rule cloudgate/cast-needs-why (tools/lint/rules/cast-needs-why.mjs): every type assertion
 * but `as const` has a comment saying why, and eslint.config.mjs turns it on for src/.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// The linter is a project of its own in tools/lint/ (untyped here: its types need its TypeScript 5).
const lintRequire = createRequire(`${ROOT}tools/lint/package.json`);
const { ESLint, Linter } = lintRequire('eslint');
const parser = lintRequire('@typescript-eslint/parser');
const RULE_PATH = `${ROOT}tools/lint/rules/cast-needs-why.mjs`;
const { default: rule } = await import(RULE_PATH);

/** The lines the rule reports in `code` (a .ts file). */
function reported(code: string): number[] {
  const linter = new Linter({ configType: 'flat' });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser },
      plugins: { cloudgate: { rules: { 'cast-needs-why': rule } } },
      rules: { 'cloudgate/cast-needs-why': 'error' },
    },
  ];
  const messages: { ruleId: string | null; line: number; fatal?: boolean }[] = linter.verify(
    code,
    config,
    'snippet.ts',
  );
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === 'cloudgate/cast-needs-why').map((m) => m.line);
}

describe('cloudgate/cast-needs-why', () => {
  it.each([
    ['a bare `as`', 'const a = JSON.parse(text) as Answers;', [1]],
    ['an angle-bracket assertion', 'const a = <Answers>JSON.parse(text);', [1]],
    ['a cast inside a call', 'run(\n  value as string,\n);', [2]],
    [
      'a comment two lines up, a blank line between',
      '// checked by ajv\n\nconst a = JSON.parse(text) as Answers;',
      [3],
    ],
    ['a trailing comment of the line above', 'setUp(); // ready\nconst a = value as Answers;', [2]],
    ['a lint directive only', '// eslint-disable-next-line no-console\nconst a = value as Answers;', [2]],
    ['an empty comment', '//\nconst a = value as Answers;', [2]],
    ['a comment above the function, not the statement', '// why\nfunction f() {\n  return value as Answers;\n}', [3]],
    ['each of two casts, one commented', '// the schema checked it\nconst a = one as A;\nconst b = two as B;', [3]],
  ])('reports %s', (_name, code, lines) => {
    expect(reported(code)).toEqual(lines);
  });

  it.each([
    ['`as const`', "const names = ['a', 'b'] as const;"],
    ['`<const>`', "const names = <const>['a', 'b'];"],
    ['a comment on the same line', 'const a = JSON.parse(text) as Answers; // ajv checked the shape'],
    ['a comment directly above the statement', '// ajv checked the shape\nconst a = JSON.parse(text) as Answers;'],
    ['a block comment above', '/* The schema validated it. */\nconst a = JSON.parse(text) as Answers;'],
    [
      'a comment above a multi-line statement',
      '// ajv checked it\nconst a = {\n  answers: JSON.parse(text) as Answers,\n};',
    ],
    [
      'a comment above the cast inside a statement',
      'const a = {\n  // ajv checked it\n  answers: JSON.parse(text) as Answers,\n};',
    ],
    [
      'a comment above an exported declaration',
      '// Node types it loosely\nexport const address = server.address() as AddressInfo;',
    ],
    ['a comment on the last line of a multi-line cast', 'const a = (\n  value\n) as Answers; // checked above'],
    ['a comment above a class member', 'class C {\n  // set in the constructor by the base\n  x = value as number;\n}'],
  ])('accepts %s', (_name, code) => {
    expect(reported(code)).toEqual([]);
  });

  it('is an error for src/ in eslint.config.mjs', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const config: { rules: Record<string, unknown[]> } = await eslint.calculateConfigForFile(
      `${ROOT}src/core/records.ts`,
    );
    expect(config.rules['cloudgate/cast-needs-why']).toEqual([2]);
  });
});
