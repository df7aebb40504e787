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

  it('exits 2 on an unknown flag, naming it and the way to the options', async () => {
    const r = await runCli(['doctor', '--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Unknown option --frobnicate for cloudgate doctor');
    expect(r.stderr).toContain('cloudgate doctor --help');
  });

  it('a mistyped flag gets "did you mean"; a missing value, a value given to a switch and a stray argument are errors', async () => {
    const typo = await runCli(['setup', '--dryrun']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean --dry-run?');
    const missing = await runCli(['doctor', '--inventory']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--inventory needs a value (PATH)');
    const valued = await runCli(['setup', '--yes=1']);
    expect(valued.code).toBe(2);
    expect(valued.stderr).toContain('--yes takes no value');
    const stray = await runCli(['doctor', '--only', 'inventory', 'extra']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('Unexpected argument "extra"');
    expect(`${typo.stdout}${missing.stdout}${stray.stdout}`).toBe('');
  });

  it('cloudgate help COMMAND prints the same help as COMMAND --help: every flag, the environment, examples', async () => {
    const help = await runCli(['help', 'doctor']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await runCli(['doctor', '--help'])).stdout);
    for (const flag of [
      '--project P',
      '--audience A',
      '--endpoint HOST[:PORT][@ADDRESS]',
      '--names platform|spec',
      '--probe-update',
    ])
      expect(help.stdout).toContain(flag);
    expect(help.stdout).toContain('Environment:');
    expect(help.stdout).toContain('CLOUDGATE_<SETTING>');
    expect(help.stdout).toMatch(/Examples:\n {2}cloudgate doctor/);
    const token = await runCli(['help', 'token']);
    for (const flag of ['--timeout SECONDS', '--insecure', '--verbose']) expect(token.stdout).toContain(flag);
    expect((await runCli(['help', 'nope'])).code).toBe(2);
  });

  it('exits 2 on an unknown doctor group, listing the groups', async () => {
    const r = await runCli(['doctor', '--only', 'nope', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '--only "nope" is not one of: inventory, certificate, signin, tls, discovery, kube, acme.',
    );
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

describe('setup without a terminal', () => {
  it('--plain on a pipe refuses with exit 2 and asks for --answers, writing nothing', async () => {
    const r = await runCli(['setup', '--plain', '--inventory', '/nonexistent/inv.yml'], { input: '\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--answers FILE');
    expect(r.stdout).toBe('');
  });
});
