/**
 * The settings chain every live command reads (doctor, serve, token, oidc): a flag, then the
 * environment (CLOUDGATE_<NAME> and a few OpenStack names), then the section of the `--config` file.
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { readOwnedFileSync } from '../safe-read.js';
import { registerSecret } from '../secrets.js';
import type { CloudSettings } from './clouds-yaml.js';
import { examineConfig, type LoadedConfig } from './config-keys.js';
import { asRecord, isRecord, textOf } from '../records.js';

/**
 * The settings a command line may give, keyed by setting name: the first link of the chain. The
 * command fills it from its typed flags (`--issuer-url` is `issuer_url`, `--audience` is `sts_audience`).
 */
export interface GivenSettings {
  issuer_url?: string;
  token_file?: string;
  sts_audience?: string;
  project?: string;
  context?: string;
  namespace?: string;
  service_account?: string;
}

/** Where a setting may come from. */
export interface SettingsSource {
  given: GivenSettings;
  env: NodeJS.ProcessEnv;
  /** Parsed `--config` YAML (sections `signin:`, `discovery:`, ...), `{}` without one. */
  config: Record<string, unknown>;
  cwd: string;
  /** The clouds.yaml entry named by --cloud or OS_CLOUD: after the environment, before --config. */
  cloud?: CloudSettings;
}

/** The `--config` file, read and examined. The YAML parser is loaded only when there is one to read. */
export async function loadConfigFile(path: string | undefined, cwd: string): Promise<LoadedConfig> {
  if (!path) return { config: {}, findings: [] };
  const { loadYaml, refuseNotices } = await import('../inventory/yaml-load.js');
  const full = resolve(cwd, path);
  // A regular file only, read without blocking and capped: a FIFO or a device given as --config is refused.
  const text = readOwnedFileSync(full, { what: 'the config file' });
  const loaded = loadYaml(text, { what: 'the config file', path, plain: true, advice: 'Fix the YAML syntax and run the command again.' });
  refuseNotices(loaded.notices, { what: 'the config file', path, plain: true });
  const doc = loaded.value;
  if (doc === null || doc === undefined) return { config: {}, findings: [] };
  if (!isRecord(doc)) {
    throw new UsageError(`The config file ${path} must be a YAML mapping with sections such as "signin:" and "discovery:".`);
  }
  return examineConfig(doc, full);
}

export interface SettingOptions {
  secret?: boolean;
  envNames?: string[];
}

const givenSetting = (given: GivenSettings, name: string): string | undefined =>
  textOf(Object.entries(given).find(([key]) => key === name)?.[1]);

/** Where a setting's value came from, for the report of which settings were found where. */
export type SettingOrigin = 'flag' | 'environment' | 'clouds.yaml' | 'config file';

/**
 * Resolves one setting: flag (never for secrets), then CLOUDGATE_<NAME>, then the clouds.yaml entry
 * (section signin only), then the --config section.
 * A secret may also come from `<name>_file` in the config or CLOUDGATE_<NAME>_FILE; it is registered
 * for redaction before it is returned.
 */
export function setting(
  input: SettingsSource,
  section: string,
  name: string,
  options: SettingOptions = {},
): string | undefined {
  const fromFlag = options.secret ? undefined : givenSetting(input.given, name);
  const envNames = [`CLOUDGATE_${name.toUpperCase()}`, ...(options.envNames ?? [])];
  const sectionValues = asRecord(input.config[section]) ?? {};
  let value: string | undefined =
    typeof fromFlag === 'string' ? fromFlag : envNames.map((n) => input.env[n]).find((v) => v !== undefined && v !== '');
  if (value === undefined && section === 'signin') value = input.cloud?.values[name];
  if (value === undefined) {
    const v = sectionValues[name];
    if (v !== undefined && v !== null && v !== '') value = String(v);
  }
  if (value === undefined && options.secret) {
    const file = input.env[`CLOUDGATE_${name.toUpperCase()}_FILE`] ?? sectionValues[`${name}_file`];
    if (file) {
      value = readOwnedFileSync(resolve(input.cwd, String(file)), { what: `${name}_file` }).trim();
    }
  }
  if (options.secret) registerSecret(value);
  return value;
}

/** Where `setting()` would take `name` from; undefined when it is not set anywhere. Never the value. */
export function settingOrigin(input: SettingsSource, section: string, name: string, options: SettingOptions = {}): SettingOrigin | undefined {
  const fromFlag = options.secret ? undefined : givenSetting(input.given, name);
  if (typeof fromFlag === 'string') return 'flag';
  const envNames = [`CLOUDGATE_${name.toUpperCase()}`, ...(options.envNames ?? [])];
  if (envNames.some((n) => input.env[n] !== undefined && input.env[n] !== '')) return 'environment';
  if (section === 'signin' && input.cloud?.values[name] !== undefined) return 'clouds.yaml';
  const sectionValues = asRecord(input.config[section]) ?? {};
  const v = sectionValues[name];
  if (v !== undefined && v !== null && v !== '') return 'config file';
  if (options.secret && input.env[`CLOUDGATE_${name.toUpperCase()}_FILE`]) return 'environment';
  if (options.secret && sectionValues[`${name}_file`]) return 'config file';
  return undefined;
}
