/**
 * The per-user settings file `cloudgate config set` writes (as `gh config` does): the inventory, the
 * clouds.yaml cloud, the kube context and the CA file a run uses when it is not given them. In
 * `$CLOUDGATE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/cloudgate` (an absolute XDG_CONFIG_HOME only, as the
 * XDG rules say), else `~/.config/cloudgate`: `config.yml`. It names files, never holds a secret; it is
 * still written as a secret file is (mode 0600, atomically, never through a link), since it decides
 * which CA a run trusts.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { UsageError } from '../errors.js';
import { readOwnedFileIfExistsSync } from '../safe-read.js';
import { isRecord } from '../records.js';
import { SAVED_SETTINGS } from './setting-specs/index.js';

export const SETTINGS_FILE = 'config.yml';

/** The folder of the settings file. */
export function settingsFolder(env: NodeJS.ProcessEnv): string {
  if (env.CLOUDGATE_CONFIG_DIR) return env.CLOUDGATE_CONFIG_DIR;
  const xdg = env.XDG_CONFIG_HOME;
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config'), 'cloudgate');
}

export const settingsFile = (env: NodeJS.ProcessEnv): string => join(settingsFolder(env), SETTINGS_FILE);

export interface SavedSettings {
  file: string;
  values: Record<string, string>;
  /** Keys the file holds that cloudgate does not keep (a newer version's, or a typo made by hand). */
  unknown: string[];
}

/** The settings file's text, the one place it is opened; undefined when there is none. */
function readSettingsText(path: string): string | undefined {
  return readOwnedFileIfExistsSync(path, { what: 'the saved settings' })?.text;
}

/** The saved settings; undefined when there is no file. A file that is no mapping of text values is an error naming it. */
export async function readSavedSettings(env: NodeJS.ProcessEnv): Promise<SavedSettings | undefined> {
  const file = settingsFile(env);
  const text = readSettingsText(file);
  if (text === undefined) return undefined;
  const { loadYaml } = await import('../inventory/yaml-load.js');
  const doc = loadYaml(text, {
    what: 'the saved settings',
    path: file,
    plain: true,
    advice: `Fix it, or remove it and set the values again with "cloudgate config set".`,
  }).value;
  if (doc === null || doc === undefined) return { file, values: {}, unknown: [] };
  if (!isRecord(doc))
    throw new UsageError(
      `The saved settings ${file} must be a YAML mapping of names to values.`,
      'Fix it, or remove it and use "cloudgate config set".',
    );
  const values: Record<string, string> = {};
  const unknown: string[] = [];
  for (const [key, value] of Object.entries(doc)) {
    if (!SAVED_SETTINGS.some((s) => s.name === key)) {
      unknown.push(key);
      continue;
    }
    if (value === null || value === undefined || value === '') continue;
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new UsageError(
        `The saved settings ${file}: ${key} must be a text value.`,
        `Set it again: cloudgate config set ${key} VALUE.`,
      );
    values[key] = String(value);
  }
  return { file, values, unknown };
}

/** The file's text for these values, in the order the settings are declared. */
export function settingsText(values: Record<string, string>): string {
  // A JSON string is a YAML double-quoted scalar: any path or name is written safely, without the YAML library.
  const body = SAVED_SETTINGS.flatMap((s) =>
    values[s.name] !== undefined ? [`${s.name}: ${JSON.stringify(values[s.name])}\n`] : [],
  ).join('');
  return `# cloudgate's saved settings: "cloudgate config set|get|list|unset" reads and writes this file.\n# A flag, the environment, clouds.yaml and --config each win over these.\n${body}`;
}

/** Writes the whole file: mode 0600, atomically, its folder created when missing, never through a link others planted. */
export async function writeSavedSettings(env: NodeJS.ProcessEnv, values: Record<string, string>): Promise<string> {
  const file = settingsFile(env);
  // Only its owner may look into the folder (the write creates no folder then, and refuses a link planted there).
  mkdirSync(settingsFolder(env), { recursive: true, mode: 0o700 });
  const { writeFilesAtomically } = await import('../inventory/atomic-write.js');
  await writeFilesAtomically(
    [{ path: file, content: settingsText(values), mode: 0o600, holdsSecret: true, description: 'saved settings' }],
    new Date(),
    { backup: false, createFolders: true },
  );
  return file;
}
