/**
 * Where the OpenStack client (openstacksdk's config loader) finds `clouds.yaml` and `secure.yaml`, and
 * how one is read. Its order: the current folder, the user's config folder (`$XDG_CONFIG_HOME/openstack`),
 * `~/.config/openstack` in any case, the site's (`$XDG_CONFIG_DIRS`' first folder, `/etc/xdg`, then
 * `/openstack`), and `/etc/openstack`; in each, `clouds.yaml`, `clouds.yml`, `clouds.json`.
 * `OS_CLIENT_CONFIG_FILE` (`OS_CLIENT_SECURE_FILE`) is tried before that list, not instead of it: a file it
 * names that does not exist falls through to the search. The first file found wins; nothing is merged but
 * secure.yaml over clouds.yaml, and secure.yaml is searched on its own (it need not sit beside clouds.yaml).
 */
import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { readOwnedFileIfExistsSync, RefusedPath } from '../safe-read.js';
import { checkedVarsText } from '../inventory/text-check.js';
import { isRecord } from '../records.js';

export type CloudsFileKind = 'clouds' | 'secure';

/** The environment variable that names a file of each kind before the search. */
export const FILE_VARIABLE: Record<CloudsFileKind, string> = {
  clouds: 'OS_CLIENT_CONFIG_FILE',
  secure: 'OS_CLIENT_SECURE_FILE',
};

/** The folders the OpenStack client searches, in its order, without repeats. */
export function configFolders(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const home = env.HOME || homedir();
  const user = env.XDG_CONFIG_HOME || join(home, '.config');
  const site = (env.XDG_CONFIG_DIRS || '/etc/xdg').split(':').find(Boolean) ?? '/etc/xdg';
  return [
    ...new Set([
      cwd,
      join(user, 'openstack'),
      join(home, '.config', 'openstack'),
      join(site, 'openstack'),
      '/etc/openstack',
    ]),
  ];
}

/** Every path tried for one kind of file, in order: the variable's file first, then each folder's three names. */
export function candidates(kind: CloudsFileKind, env: NodeJS.ProcessEnv, cwd: string): string[] {
  const named = env[FILE_VARIABLE[kind]];
  const searched = configFolders(env, cwd).flatMap((folder) =>
    ['yaml', 'yml', 'json'].map((ext) => join(folder, `${kind}.${ext}`)),
  );
  return named ? [resolve(cwd, named), ...searched] : searched;
}

/**
 * The first file found. A link counts as found, dangling or not: reading it then refuses it (or follows
 * it) rather than looking further, so a planted link is never silently skipped.
 */
export function findCloudsFile(kind: CloudsFileKind, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  return candidates(kind, env, cwd).find((path) => lstatSync(path, { throwIfNoEntry: false }) !== undefined);
}

/**
 * The file's bytes as text: the one place a clouds.yaml or secure.yaml is opened. It holds (or, with
 * secure.yaml, receives) the client secret and names the servers it is sent to: read only where the
 * ownership rule allows (a clouds.yaml another user put in a shared working folder is refused, naming its
 * owner), and refused with a character YAML forbids (a NUL).
 */
export function readCloudsFile(path: string, what: string): string {
  const variable = what === 'secure.yaml' ? FILE_VARIABLE.secure : FILE_VARIABLE.clouds;
  let read;
  try {
    read = readOwnedFileIfExistsSync(path, {
      what: `the file ${what}`,
      folderAdvice: `Give the path of the file itself (${variable}), not its folder.`,
    });
  } catch (error) {
    if (!(error instanceof RefusedPath)) throw error;
    throw new UsageError(
      error.message,
      `${error.advice} The OpenStack client reads ${what} from the current folder first: run from a folder of your own, or name your own file with ${variable}.`,
    );
  }
  if (!read) throw new UsageError(`Cannot read ${what} ${path}: ENOENT.`, `Check the path (${variable}).`);
  return checkedVarsText(read, `the file ${what}`, path, 'the OpenStack client');
}

/** The file's `clouds` mapping (YAML, or JSON for clouds.json); `{}` for an empty file or one without it. */
export async function readCloudsMapping(path: string, what: string): Promise<Record<string, unknown>> {
  const { loadYaml } = await import('../inventory/yaml-load.js');
  const text = readCloudsFile(path, what);
  const doc = loadYaml(text, {
    what,
    path,
    plain: true,
    advice: 'Fix the YAML syntax (the OpenStack client skips a file it cannot parse, and uses the next one it finds).',
  }).value;
  if (doc === null || doc === undefined) return {};
  if (!isRecord(doc))
    throw new UsageError(
      `${what} ${path} is not a mapping (the OpenStack client refuses it too).`,
      'Its top level must be "clouds:" with one entry per cloud.',
    );
  const clouds = doc.clouds;
  if (clouds === undefined || clouds === null) return {};
  if (!isRecord(clouds)) throw new UsageError(`${what} ${path}: "clouds" must be a mapping of cloud names.`);
  return clouds;
}
