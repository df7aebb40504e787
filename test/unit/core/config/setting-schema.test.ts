import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  describeOrigin,
  resolveSetting,
  type SettingSources,
  type SettingSpec,
} from '../../../../src/core/config/setting-schema.js';
import { specOf } from '../../../../src/core/config/setting-specs/index.js';
import { mapEntry } from '../../../../src/core/config/clouds-yaml.js';
import { clearSecretsForTests, redact } from '../../../../src/core/secrets.js';

afterEach(() => clearSecretsForTests());

const DEMO: SettingSpec = {
  name: 'demo',
  type: 'text',
  section: 'signin',
  env: ['OS_DEMO'],
  flag: 'demo',
  clouds: true,
  saved: true,
  default: 'fallback',
  doc: '',
};
const cloud = {
  name: 'c',
  file: '/c.yaml',
  ...mapEntry({}, '/'),
  values: { demo: 'from-cloud' },
  keys: { demo: 'auth.demo' },
};

describe('resolveSetting: one order for every source, each value with its origin', () => {
  it('flag, CLOUDGATE_<NAME>, the OpenStack name, clouds.yaml, --config, saved settings, default', () => {
    const all: SettingSources = {
      given: { demo: 'flag' },
      env: { CLOUDGATE_DEMO: 'cg', OS_DEMO: 'os' },
      config: { signin: { demo: 'config' } },
      cwd: '/',
      cloud,
      saved: { file: '/saved.yml', values: { demo: 'saved' } },
    };
    const steps: [Partial<SettingSources>, string, string][] = [
      [{}, 'flag', '--demo'],
      [{ given: {} }, 'cg', 'environment CLOUDGATE_DEMO'],
      [{ given: {}, env: { OS_DEMO: 'os' } }, 'os', 'environment OS_DEMO'],
      [{ given: {}, env: {} }, 'from-cloud', 'clouds.yaml auth.demo'],
      [{ given: {}, env: {}, cloud: undefined }, 'config', 'config file signin.demo'],
      [{ given: {}, env: {}, cloud: undefined, config: {} }, 'saved', 'saved settings /saved.yml'],
      [{ given: {}, env: {}, cloud: undefined, config: {}, saved: undefined }, 'fallback', 'default'],
    ];
    for (const [over, value, origin] of steps) {
      const resolved = resolveSetting(DEMO, { ...all, ...over });
      expect([resolved.value, describeOrigin(resolved.origin!)]).toEqual([value, origin]);
    }
  });

  it('never takes a secret from a flag; reads its file last before the saved settings, and registers it', () => {
    const secret: SettingSpec = { name: 'token', type: 'secret', section: 'signin', doc: '' };
    const dir = mkdtempSync(join(tmpdir(), 'cg-schema-'));
    writeFileSync(join(dir, 'token'), 'from-file-4711\n');
    const sources: SettingSources = {
      given: { token: 'flag' },
      env: {},
      config: { signin: { token_file: join(dir, 'token') } },
      cwd: dir,
    };
    expect(resolveSetting(secret, sources)).toEqual({
      value: 'from-file-4711',
      origin: { kind: 'config file', where: 'signin.token_file' },
    });
    expect(redact('x from-file-4711')).toBe('x [redacted]');
    // Without reading, the origin only.
    expect(
      resolveSetting(secret, { ...sources, config: { signin: { token_file: join(dir, 'missing') } } }, { read: false }),
    ).toEqual({ origin: { kind: 'config file', where: 'signin.token_file' } });
  });

  it('the kube context is read from its section and from the older discovery: section', () => {
    const context = specOf('discovery', 'context')!;
    expect(context.section).toBe('kube');
    expect(
      resolveSetting(context, { given: {}, env: {}, config: { discovery: { context: 'old' } }, cwd: '/' }).value,
    ).toBe('old');
    expect(
      resolveSetting(context, {
        given: {},
        env: {},
        config: { kube: { context: 'new' }, discovery: { context: 'old' } },
        cwd: '/',
      }).value,
    ).toBe('new');
  });
});
