import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { variablesMarkdown } from '../../../src/core/config/schema.js';

const DOC = new URL('../../../docs/variables.md', import.meta.url).pathname;
const BEGIN = '<!-- variables-table:begin (generated from src/core/config/variables.ts; UPDATE_DOCS=1 npx vitest run test/unit/repository/variables-doc.test.ts) -->';
const END = '<!-- variables-table:end -->';

describe('docs/variables.md variable table', () => {
  it('matches the variables table', () => {
    const text = readFileSync(DOC, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(start, 'docs/variables.md lacks the variables-table markers').toBeGreaterThan(-1);
    const expected = `${BEGIN}\n${variablesMarkdown()}\n${END}`;
    const actual = text.slice(start, end + END.length);
    if (actual !== expected && process.env.UPDATE_DOCS) {
      writeFileSync(DOC, text.slice(0, start) + expected + text.slice(end + END.length));
      return;
    }
    expect(actual).toBe(expected);
  });
});
