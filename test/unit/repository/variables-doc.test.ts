import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { variablesDocument } from '../../../src/core/config/schema.js';
import { VARIABLES } from '../../../src/core/config/variables.js';

const DOC = new URL('../../../docs/variables.md', import.meta.url).pathname;

describe('docs/variables.md', () => {
  it('is generated from the variables table (UPDATE_DOCS=1 rewrites it)', () => {
    const expected = variablesDocument();
    if (process.env.UPDATE_DOCS) writeFileSync(DOC, expected);
    expect(readFileSync(DOC, 'utf8')).toBe(expected);
  });

  it('lists every variable by the platform\'s name, and none by its neutral alias', () => {
    const text = readFileSync(DOC, 'utf8');
    for (const row of VARIABLES) {
      expect(text, row.name).toContain(`\`${row.name}\``);
      if (row.alias) expect(text, row.alias).not.toContain(row.alias);
    }
  });
});
