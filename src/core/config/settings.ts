/**
 * The settings chain every live command reads (doctor, serve, token, oidc): a flag, then the
 * environment (CLOUDGATE_<NAME> and the OpenStack client's names), then the clouds.yaml entry, then the
 * section of the `--config` file, then the saved settings (`cloudgate config set`). Each setting is
 * declared once, by area (setting-specs/), and resolved by one resolver (setting-schema.ts).
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { readOwnedFileSync } from '../safe-read.js';
import { examineConfig, type LoadedConfig } from './config-keys.js';
import { isRecord } from '../records.js';
import {
  resolveList,
  resolveSetting,
  type Given,
  type ListItem,
  type Resolved,
  type SettingSources,
  type SettingSpec,
} from './setting-schema.js';
import { specOf } from './setting-specs/index.js';

/**
 * The settings a command line gave, keyed by setting name: the first link of the chain. The command
 * fills it from its typed flags through each setting's declared flag (`--audience` is `sts_audience`).
 */
export type GivenSettings = Given;

/** Where a setting may come from. */
export type SettingsSource = SettingSources;

/** The `--config` file, read and examined. The YAML parser is loaded only when there is one to read. */
export async function loadConfigFile(path: string | undefined, cwd: string): Promise<LoadedConfig> {
  if (!path) return { config: {}, findings: [] };
  const { loadYaml, refuseNotices } = await import('../inventory/yaml-load.js');
  const full = resolve(cwd, path);
  // A regular file only, read without blocking and capped: a FIFO or a device given as --config is refused.
  const text = readOwnedFileSync(full, { what: 'the config file' });
  const loaded = loadYaml(text, {
    what: 'the config file',
    path,
    plain: true,
    advice: 'Fix the YAML syntax and run the command again.',
  });
  refuseNotices(loaded.notices, { what: 'the config file', path, plain: true });
  const doc = loaded.value;
  if (doc === null || doc === undefined) return { config: {}, findings: [] };
  if (!isRecord(doc)) {
    throw new UsageError(
      `The config file ${path} must be a YAML mapping with sections such as "signin:" and "discovery:".`,
    );
  }
  return examineConfig(doc, full);
}

export interface SettingOptions {
  secret?: boolean;
  envNames?: string[];
}

/** The declared setting, or one described on the spot (a group's dynamic keys, such as acme's). */
function specFor(section: string, name: string, options: SettingOptions): SettingSpec {
  return (
    specOf(section, name) ?? {
      name,
      section,
      type: options.secret ? 'secret' : 'text',
      env: options.envNames ?? [],
      doc: '',
    }
  );
}

/** One setting through the resolver, with where it came from. */
export function resolved(input: SettingsSource, section: string, name: string): Resolved {
  return resolveSetting(specFor(section, name, {}), input);
}

/** One setting's value through the resolver (a default included); secrets are registered for redaction. */
export function setting(
  input: SettingsSource,
  section: string,
  name: string,
  options: SettingOptions = {},
): string | undefined {
  return resolveSetting(specFor(section, name, options), input).value;
}

/** A list setting's items, each with where it came from (setting-schema.ts: resolveList). */
export function settingList(input: SettingsSource, section: string, name: string): ListItem[] {
  return resolveList(specFor(section, name, {}), input);
}

/** A switch setting (`--probe-update`, `probe_update: true`, `CLOUDGATE_PROBE_UPDATE=true`). */
export function settingOn(input: SettingsSource, section: string, name: string): boolean {
  return /^(true|yes|on|1)$/i.test(setting(input, section, name) ?? '');
}
