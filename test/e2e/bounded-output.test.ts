/**
 * Output stays bounded whatever the inventory holds: 3,000 group_vars files (each listed in the
 * details) give no line longer than a report line's cap in --verbose, and a --json whose lists end in
 * "… and N more". Run `npm run build` first.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { LINE_LIMIT, LIST_LIMIT } from '../../src/core/bounded.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cg-bounded-'));
  const all = join(dir, 'group_vars', 'all');
  mkdirSync(all, { recursive: true });
  writeFileSync(
    join(all, '000-certificates.yml'),
    'cluster_issuer_type: acme\ncluster_issuer_acme_email: ops@example.com\n',
  );
  for (let i = 1; i <= 3_000; i++)
    writeFileSync(join(all, `${String(i).padStart(4, '0')}-${'x'.repeat(20)}.yml`), `other_${i}: ${i}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('3,000 group_vars files', () => {
  it('--verbose: no line longer than the cap of a report line', async () => {
    const r = await runCli(['doctor', '--only', 'inventory', '--inventory', dir, '--verbose']);
    expect(r.code).toBe(0);
    const longest = Math.max(...(r.stdout + r.stderr).split('\n').map((l) => l.length));
    expect(longest).toBeLessThan(LINE_LIMIT + 200);
  });

  it('--json: the list of files is cut to its first items and says how many more', async () => {
    const r = await runCli(['doctor', '--only', 'inventory', '--inventory', dir, '--json', '--verbose']);
    const valid = (JSON.parse(r.stdout) as { checks: { id: string; details?: { files?: string[] } }[] }).checks.find(
      (c) => c.id === 'inventory.valid',
    );
    expect(valid?.details?.files).toHaveLength(LIST_LIMIT + 1);
    expect(valid?.details?.files?.at(-1)).toBe(`… and ${3_001 - LIST_LIMIT} more`);
  });
});
