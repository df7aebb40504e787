import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../../../src/core/config/settings.js';
import { readSigninSettings } from '../../../../src/core/areas/signin/settings.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'cg-config-'));
}

describe('--config: *_file paths', () => {
  it("resolves *_file against the config file's folder, not the working folder", async () => {
    const dir = folder();
    mkdirSync(join(dir, 'secrets'));
    writeFileSync(join(dir, 'secrets', 'client-secret'), 'from-the-config-folder\n', { mode: 0o600 });
    const file = join(dir, 'cloudgate.yaml');
    writeFileSync(file, 'signin:\n  client_secret_file: secrets/client-secret\n', { mode: 0o600 });
    const elsewhere = folder();
    const { config } = await loadConfigFile(file, elsewhere);
    expect(readSigninSettings({ given: {}, env: {}, config, cwd: elsewhere }).clientSecret).toBe(
      'from-the-config-folder',
    );
  });
});
