/**
 * What every live run starts from besides its flags: the saved settings, the clouds.yaml cloud (by
 * --cloud, OS_CLOUD or the saved one) and the CA file (by --ca-file, OS_CACERT, the cloud's cacert or the
 * saved one), each through the resolver, with where it came from when no flag gave it.
 */
import { UsageError } from '../errors.js';
import { expandHome, readCloud, type CloudSettings } from './clouds-yaml.js';
import { readSavedSettings, type SavedSettings } from './saved-settings.js';
import { describeOrigin, resolveSetting, type SettingSources } from './setting-schema.js';
import { GENERAL_SETTINGS } from './setting-specs/general.js';

export type StartName = 'inventory' | 'cloud' | 'context' | 'ca_file';

/** One of the run's starting points and where it came from: `inventory /x (ansible.cfg /y/ansible.cfg)`. */
export interface FoundSetting {
  name: StartName;
  value: string;
  from: string;
}

export interface StartSettings {
  saved?: SavedSettings;
  cloud?: CloudSettings;
  /** Absolute, `~` expanded. */
  caFile?: string;
  /** The sources every later setting is resolved from (the cloud and the saved settings included). */
  sources: SettingSources;
  found: FoundSetting[];
}

const specOf = (name: StartName) => GENERAL_SETTINGS.find((g) => g.name === name)!;

/** A general setting through the resolver, noted in `found` when neither a flag nor a default gave it. */
export function resolveStart(name: StartName, sources: SettingSources, found: FoundSetting[]): string | undefined {
  const { value, origin } = resolveSetting(specOf(name), sources);
  if (value !== undefined && origin && origin.kind !== 'flag' && origin.kind !== 'default')
    found.push({ name, value, from: describeOrigin(origin) });
  return value;
}

export async function startSettings(
  flags: { cloud?: string; caFile?: string; given?: SettingSources['given'] },
  env: NodeJS.ProcessEnv,
  cwd: string,
  config: Record<string, unknown>,
): Promise<StartSettings> {
  if (flags.cloud !== undefined && flags.cloud.trim() === '') {
    throw new UsageError(
      '--cloud needs the name of an entry of clouds.yaml.',
      'Give --cloud NAME, e.g. the name you give openstack --os-cloud.',
    );
  }
  const saved = await readSavedSettings(env);
  const found: FoundSetting[] = [];
  const base: SettingSources = {
    given: { ...flags.given, cloud: flags.cloud, ca_file: flags.caFile },
    env,
    config,
    cwd,
    ...(saved ? { saved } : {}),
  };
  const cloudOrigin = resolveSetting(specOf('cloud'), base).origin;
  const cloudName = resolveStart('cloud', base, found);
  const via =
    cloudOrigin && cloudOrigin.kind !== 'flag' ? `cloud ${cloudName} (from ${describeOrigin(cloudOrigin)})` : undefined;
  const cloud = cloudName === undefined ? undefined : await readCloud(cloudName, env, cwd, via);
  const sources: SettingSources = { ...base, ...(cloud ? { cloud } : {}) };
  const caFile = resolveStart('ca_file', sources, found);
  return {
    ...(saved ? { saved } : {}),
    ...(cloud ? { cloud } : {}),
    ...(caFile ? { caFile: expandHome(caFile, env, cwd) } : {}),
    sources,
    found,
  };
}
