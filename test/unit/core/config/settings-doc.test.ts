import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsDocument } from '../../../../src/core/config/settings-doc.js';
import { SETTING_SPECS } from '../../../../src/core/config/setting-specs/index.js';
import { CONFIG_KEYS } from '../../../../src/core/config/config-keys.js';

const DOC = new URL('../../../../docs/settings.md', import.meta.url).pathname;

describe('docs/settings.md', () => {
  it('is generated from the settings the areas declare (UPDATE_DOCS=1 rewrites it)', () => {
    const expected = settingsDocument();
    if (process.env.UPDATE_DOCS) writeFileSync(DOC, expected);
    expect(readFileSync(DOC, 'utf8')).toBe(expected);
  });

  it('lists every setting, and every key --config accepts is one of them', () => {
    const text = readFileSync(DOC, 'utf8');
    for (const spec of SETTING_SPECS) expect(text, spec.name).toContain(`| \`${spec.name}\` |`);
    // acme: takes the inventory's own variables, listed in docs/variables.md.
    for (const [section, keys] of Object.entries(CONFIG_KEYS).filter(([section]) => section !== 'acme')) {
      for (const key of keys) expect(text, `${section}.${key}`).toContain(`\`${section}.${key}\``);
    }
  });
});
