import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aliasesMarkdown, variablesDocument } from '../../../src/core/config/schema.js';
import { VARIABLES } from '../../../src/core/config/variables.js';

const DOC = new URL('../../../docs/variables.md', import.meta.url).pathname;
const ALIASES = new URL('../../../docs/neutral-names.md', import.meta.url).pathname;
const GENERATED =
  '<!-- Generated below: UPDATE_DOCS=1 npx vitest run test/unit/repository/variables-doc.test.ts -->\n\n';

describe('docs/variables.md', () => {
  it('is generated from the variables table (UPDATE_DOCS=1 rewrites it)', () => {
    const expected = variablesDocument();
    if (process.env.UPDATE_DOCS) writeFileSync(DOC, expected);
    expect(readFileSync(DOC, 'utf8')).toBe(expected);
  });

  it("lists every variable by the platform's name, and none by its neutral alias", () => {
    const text = readFileSync(DOC, 'utf8');
    for (const row of VARIABLES) {
      expect(text, row.name).toContain(`\`${row.name}\``);
      if (row.alias) expect(text, row.alias).not.toContain(row.alias);
    }
  });
});

describe('docs/neutral-names.md', () => {
  it('ends with the alias tables generated from the vocabulary (UPDATE_DOCS=1 rewrites them)', () => {
    const text = readFileSync(ALIASES, 'utf8');
    const at = text.indexOf(GENERATED);
    expect(at).toBeGreaterThan(0);
    const expected = `${text.slice(0, at)}${GENERATED}${aliasesMarkdown()}\n`;
    if (process.env.UPDATE_DOCS) writeFileSync(ALIASES, expected);
    expect(readFileSync(ALIASES, 'utf8')).toBe(expected);
  });

  it("names every alias, each beside the platform's word", () => {
    const text = readFileSync(ALIASES, 'utf8');
    for (const row of VARIABLES.filter((r) => r.alias))
      expect(text, row.alias).toContain(`| \`${row.name}\` | \`${row.alias}\` |`);
    for (const [word, alias] of [
      ['venafi', 'commercialca'],
      ['route53', 'clouddnsb'],
      ['kubernetes', 'clusteroidc'],
      ['infoblox', 'dnse'],
    ]) {
      expect(text).toMatch(new RegExp(`: ${word}\` \\| \`${alias}\``));
    }
  });
});
