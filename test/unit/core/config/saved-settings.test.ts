import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSavedSettings, settingsFolder, writeSavedSettings } from '../../../../src/core/config/saved-settings.js';

const dir = () => mkdtempSync(join(tmpdir(), 'cg-saved-'));

describe('the saved settings file', () => {
  it('lives in CLOUDGATE_CONFIG_DIR, else an absolute XDG_CONFIG_HOME, else ~/.config (a relative XDG_CONFIG_HOME is ignored)', () => {
    expect(settingsFolder({ CLOUDGATE_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(settingsFolder({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/cloudgate');
    expect(settingsFolder({ XDG_CONFIG_HOME: 'rel', HOME: '/h' })).toBe('/h/.config/cloudgate');
  });

  it('is written whole with mode 0600 in a folder of mode 0700, values quoted, and read back', async () => {
    const home = dir();
    const env = { HOME: home };
    expect(await readSavedSettings(env)).toBeUndefined();
    const file = await writeSavedSettings(env, { cloud: 'edge: "east"', inventory: '/srv/inv' });
    expect(file).toBe(join(home, '.config', 'cloudgate', 'config.yml'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home, '.config', 'cloudgate')).mode & 0o777).toBe(0o700);
    expect((await readSavedSettings(env))?.values).toEqual({ inventory: '/srv/inv', cloud: 'edge: "east"' });
  });

  it('reports keys it does not keep, and refuses a file that is no mapping of text values', async () => {
    const folder = dir();
    const env = { CLOUDGATE_CONFIG_DIR: folder };
    writeFileSync(join(folder, 'config.yml'), 'inventory: /x\nbroker_url: https://kc\n');
    expect(await readSavedSettings(env)).toMatchObject({ values: { inventory: '/x' }, unknown: ['broker_url'] });
    writeFileSync(join(folder, 'config.yml'), '- a\n');
    await expect(readSavedSettings(env)).rejects.toThrow(/must be a YAML mapping/);
    writeFileSync(join(folder, 'config.yml'), 'cloud: [a, b]\n');
    await expect(readSavedSettings(env)).rejects.toThrow(/cloud must be a text value/);
  });
});
