import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configFindingsOf } from '../../../../src/core/config/config-keys.js';
import { loadConfigFile } from '../../../../src/core/config/settings.js';
import { readSigninSettings } from '../../../../src/core/areas/signin/settings.js';
import { runCli } from '../../../helpers/cli.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'cg-config-'));
}

function writeConfig(dir: string, text: string, mode = 0o600): string {
  const file = join(dir, 'cloudgate.yaml');
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

describe('--config: keys cloudgate does not read', () => {
  it('warns about a misspelt key with "did you mean"', () => {
    const dir = folder();
    const config = loadConfigFile(writeConfig(dir, 'signin:\n  brokr_url: https://kc.example.com\n  realm: cloud\n'), dir);
    expect(configFindingsOf(config)).toEqual([expect.objectContaining({ section: 'signin', key: 'signin.brokr_url', advice: 'Did you mean broker_url?' })]);
  });

  it('warns about a misspelt section, and stays silent on a clean file', () => {
    const dir = folder();
    const misspelt = loadConfigFile(writeConfig(dir, 'sigin:\n  realm: cloud\n'), dir);
    expect(configFindingsOf(misspelt)).toEqual([expect.objectContaining({ section: 'signin', key: 'sigin', advice: 'Did you mean "signin:"?' })]);
    const clean = loadConfigFile(writeConfig(dir, 'signin:\n  realm: cloud\ndiscovery:\n  context: prod\ntls:\n  endpoints: [a.example.com]\n'), dir);
    expect(configFindingsOf(clean)).toEqual([]);
  });

  it('doctor --only signin with a misspelt key warns (exit 1 with --strict) instead of "Nothing was checked"', async () => {
    const dir = folder();
    const file = writeConfig(dir, 'signin:\n  brokr_url: https://kc.example.com\n');
    const result = await runCli(['doctor', '--only', 'signin', '--json', '--config', file], { cwd: dir, env: { OS_AUTH_URL: '', OS_PROJECT_ID: '', OS_PROJECT_NAME: '' } });
    const check = JSON.parse(result.stdout).checks.find((c: { id: string }) => c.id === 'signin.config');
    expect(check).toMatchObject({ status: 'warn', advice: expect.stringContaining('broker_url') });
    const strict = await runCli(['doctor', '--only', 'signin', '--strict', '--config', file], { cwd: dir, env: { OS_AUTH_URL: '' } });
    expect(strict.code).toBe(1);
  });
});

describe('--config: *_file paths and secret files', () => {
  it("resolves *_file against the config file's folder, not the working folder", () => {
    const dir = folder();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'client-secret'), 'from-the-config-folder\n', { mode: 0o600 });
    const file = writeConfig(dir, 'signin:\n  client_secret_file: secrets/client-secret\n');
    const elsewhere = folder();
    const config = loadConfigFile(file, elsewhere);
    expect(readSigninSettings({ flags: {}, env: {}, config, cwd: elsewhere }).clientSecret).toBe('from-the-config-folder');
  });

  it('warns about a secret file, or a config file holding a secret, that others can read', () => {
    const dir = folder();
    writeFileSync(join(dir, 'open-secret'), 'x\n', { mode: 0o644 });
    chmodSync(join(dir, 'open-secret'), 0o644);
    const loose = loadConfigFile(writeConfig(dir, 'signin:\n  client_secret_file: open-secret\n'), dir);
    expect(configFindingsOf(loose)).toEqual([expect.objectContaining({ key: 'signin.client_secret_file', advice: expect.stringContaining('chmod 600') })]);

    const inline = loadConfigFile(writeConfig(dir, 'signin:\n  client_secret: inline-value\n', 0o640), dir);
    expect(configFindingsOf(inline)).toEqual([expect.objectContaining({ key: 'file', message: expect.stringContaining('its group') })]);
    expect(JSON.stringify(configFindingsOf(inline))).not.toContain('inline-value');

    const tight = loadConfigFile(writeConfig(dir, 'signin:\n  client_secret: inline-value\n', 0o600), dir);
    expect(configFindingsOf(tight)).toEqual([]);
  });
});
