import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { variablesMarkdown } from '../../../src/core/config/schema.js';

const README = new URL('../../../README.md', import.meta.url).pathname;
const BEGIN = '<!-- variables-table:begin (generated from src/core/config/variables.ts; UPDATE_README=1 npx vitest run test/unit/repository/readme.test.ts) -->';
const END = '<!-- variables-table:end -->';

describe('README variable table', () => {
  it('matches the variables table', () => {
    const text = readFileSync(README, 'utf8');
    const start = text.indexOf(BEGIN);
    const end = text.indexOf(END);
    expect(start, 'README.md lacks the variables-table markers').toBeGreaterThan(-1);
    const expected = `${BEGIN}\n${variablesMarkdown()}\n${END}`;
    const actual = text.slice(start, end + END.length);
    if (actual !== expected && process.env.UPDATE_README) {
      writeFileSync(README, text.slice(0, start) + expected + text.slice(end + END.length));
      return;
    }
    expect(actual).toBe(expected);
  });
});
