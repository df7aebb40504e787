/** An empty flag value is a usage error, never the default: `--inventory=` read the current folder, `--only ""` ran every group. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('empty flag values', () => {
  it.each([
    [['doctor', '--inventory=']],
    [['doctor', '--inventory', '']],
    [['doctor', '--only', '']],
    [['doctor', '--only=', '--inventory', 'x.yml']],
    [['doctor', '--only', ' , ']],
    [['render', '--inventory=']],
    [['setup', '--inventory=', '--dry-run']],
  ])('%j exits 2 naming the flag', async (args) => {
    // The current folder holds an inventory that would be read if the empty value fell back to it.
    const cwd = mkdtempSync(join(tmpdir(), 'cloudgate-empty-'));
    writeFileSync(join(cwd, 'certificates.yml'), 'cluster_issuer_type: acme\n');
    const r = await runCli(args, { cwd });
    expect(r.code).toBe(2);
    const flag = args
      .find((a) => a.startsWith('--') && (a.endsWith('=') || ['--inventory', '--only'].includes(a)))!
      .replace(/=$/, '');
    expect(r.stderr).toContain(`${flag} was given an empty value`);
    expect(r.stdout).toBe('');
  });
});
