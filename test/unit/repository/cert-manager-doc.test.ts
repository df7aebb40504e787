/**
 * docs/cert-manager.md shows cert-manager's reasons as cloudgate reads them: every reason of the table
 * (with the releases that set it), every ACME problem type and every solver case has its row.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REASONS } from '../../../src/core/kube/cert-manager-reasons.js';
import { ACME_PROBLEMS, SOLVER_CASES } from '../../../src/core/kube/acme-problems.js';

const PAGE = readFileSync(new URL('../../../docs/cert-manager.md', import.meta.url), 'utf8');
const rows = PAGE.split('\n').filter((l) => l.startsWith('| '));

describe('docs/cert-manager.md', () => {
  it('has a row for every reason, with the releases whose source sets it', () => {
    const missing = REASONS.filter(
      (r) =>
        !rows.some((row) =>
          row.startsWith(
            `| \`${r.reason}\` | ${r.sites.join(', ')} | ${r.releases.includes('1.15') ? '✓' : ''} | ${r.releases.includes('1.21') ? '✓' : ''} |`,
          ),
        ),
    );
    expect(missing.map((r) => r.reason)).toEqual([]);
    const cases = REASONS.flatMap((r) => (r.messages ?? []).map((m) => m.code));
    expect(cases.filter((code) => !rows.some((row) => row.startsWith(`| ↳ \`${code}\` |`)))).toEqual([]);
  });

  it('has a row for every ACME problem type and every solver case', () => {
    expect(Object.keys(ACME_PROBLEMS).filter((t) => !rows.some((row) => row.startsWith(`| \`${t}\` |`)))).toEqual([]);
    expect(SOLVER_CASES.map((c) => c.code).filter((c) => !rows.some((row) => row.startsWith(`| \`${c}\` |`)))).toEqual(
      [],
    );
  });
});
