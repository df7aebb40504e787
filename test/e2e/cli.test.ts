import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

describe('command-line contract', () => {
  it('prints the version and exits 0', async () => {
    const r = await runCli(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('lists every command in --help', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['setup', 'doctor', 'regenerate', 'oidc', 'token', 'schema']) expect(r.stdout).toContain(`  ${c} `);
  });

  it('exits 2 on an unknown command, naming it and the way out', async () => {
    const r = await runCli(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown command "frobnicate"');
    expect(r.stderr).toContain('cloudgate --help');
    expect(r.stdout).toBe('');
  });

  it('exits 2 on an unknown flag with the command usage', async () => {
    const r = await runCli(['doctor', '--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/frobnicate/);
    expect(r.stderr).toContain('usage: cloudgate doctor');
  });

  it('exits 2 on an unknown doctor group, listing the groups', async () => {
    const r = await runCli(['doctor', '--only', 'nope', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown check group: nope');
    expect(r.stderr).toContain('inventory');
    expect(r.stdout).toBe('');
  });

  it('exits 2 on a malformed --config, naming the file', async () => {
    const r = await runCli(['doctor', '--config', '/nonexistent/cloudgate.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/nonexistent/cloudgate.yaml');
  });

  it('shows per-command help', async () => {
    const r = await runCli(['doctor', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: cloudgate doctor');
  });
});
