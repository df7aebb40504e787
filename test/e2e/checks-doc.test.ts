/** docs/checks.md lists every check id the doctor prints with --list-checks, in its index table. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const PAGE = readFileSync(new URL('../../docs/checks.md', import.meta.url), 'utf8');
const INDEX = PAGE.slice(
  PAGE.indexOf('## Every check id'),
  PAGE.indexOf('\n## ', PAGE.indexOf('## Every check id') + 1),
);

describe('docs/checks.md', () => {
  it('has a row for every id of doctor --list-checks', async () => {
    const r = await runCli(['doctor', '--list-checks', '--json']);
    expect(r.code).toBe(0);
    const ids = (JSON.parse(r.stdout) as { id: string }[]).map((c) => c.id);
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.filter((id) => !INDEX.includes(`| \`${id}\` |`))).toEqual([]);
  });
});
