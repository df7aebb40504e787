import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../../src/core/config/settings.js';

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
  it('warns about a misspelt key with "did you mean"', async () => {
    const dir = folder();
    const config = await loadConfigFile(
      writeConfig(dir, 'signin:\n  brokr_url: https://kc.example.com\n  realm: cloud\n'),
      dir,
    );
    expect(config.findings).toEqual([
      expect.objectContaining({ section: 'signin', key: 'signin.brokr_url', advice: 'Did you mean broker_url?' }),
    ]);
  });

  it("acme: takes the inventory's variables by the platform's names; a neutral alias is read and said so, with its rename", async () => {
    const dir = folder();
    const clean = await loadConfigFile(
      writeConfig(
        dir,
        'acme:\n  cluster_issuer_acme_route53_secret_access_key_file: key.txt\n  cluster_issuer_acme_cloudflare_api_token: t\n',
      ),
      dir,
    );
    expect(clean.findings).toEqual([]);
    const aliased = await loadConfigFile(
      writeConfig(
        dir,
        'acme:\n  cluster_issuer_acme_clouddnsb_secret_access_key_file: key.txt\n  cluster_issuer_acme_cloudflare_api_tokn: t\n',
      ),
      dir,
    );
    expect(aliased.findings).toEqual([
      expect.objectContaining({
        section: 'acme',
        key: 'acme.cluster_issuer_acme_clouddnsb_secret_access_key_file',
        advice: "Rename it to cluster_issuer_acme_route53_secret_access_key_file, the platform's own name.",
      }),
      expect.objectContaining({
        section: 'acme',
        key: 'acme.cluster_issuer_acme_cloudflare_api_tokn',
        advice: 'Did you mean cluster_issuer_acme_cloudflare_api_token?',
      }),
    ]);
  });

  it('warns about a misspelt section, and stays silent on a clean file', async () => {
    const dir = folder();
    const misspelt = await loadConfigFile(writeConfig(dir, 'sigin:\n  realm: cloud\n'), dir);
    expect(misspelt.findings).toEqual([
      expect.objectContaining({ section: 'signin', key: 'sigin', advice: 'Did you mean "signin:"?' }),
    ]);
    const clean = await loadConfigFile(
      writeConfig(dir, 'signin:\n  realm: cloud\ndiscovery:\n  context: prod\ntls:\n  endpoints: [a.example.com]\n'),
      dir,
    );
    expect(clean.findings).toEqual([]);
  });
});

describe('--config: secret files others can read', () => {
  it('warns about a secret file, or a config file holding a secret, that others can read', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'open-secret'), 'x\n', { mode: 0o644 });
    chmodSync(join(dir, 'open-secret'), 0o644);
    const loose = await loadConfigFile(writeConfig(dir, 'signin:\n  client_secret_file: open-secret\n'), dir);
    expect(loose.findings).toEqual([
      expect.objectContaining({ key: 'signin.client_secret_file', advice: expect.stringContaining('chmod 600') }),
    ]);

    const inline = await loadConfigFile(writeConfig(dir, 'signin:\n  client_secret: inline-value\n', 0o640), dir);
    expect(inline.findings).toEqual([
      expect.objectContaining({ key: 'file', message: expect.stringContaining('its group') }),
    ]);
    expect(JSON.stringify(inline.findings)).not.toContain('inline-value');

    const tight = await loadConfigFile(writeConfig(dir, 'signin:\n  client_secret: inline-value\n', 0o600), dir);
    expect(tight.findings).toEqual([]);
  });
});

describe('--config: "did you mean" is the one rule of closest.ts', () => {
  it('suggests a key written in other case, and a section by the start of its name', async () => {
    const dir = folder();
    const config = await loadConfigFile(
      writeConfig(dir, 'signin:\n  Broker_URL: https://kc.example.com\n  realm: cloud\ndisc:\n  context: prod\n'),
      dir,
    );
    expect(config.findings).toEqual([
      expect.objectContaining({ key: 'signin.Broker_URL', advice: 'Did you mean broker_url?' }),
      expect.objectContaining({ key: 'disc', advice: 'Did you mean "discovery:"?' }),
    ]);
  });
});
