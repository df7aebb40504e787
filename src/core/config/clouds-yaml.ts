/**
 * The OpenStack client's own configuration: an entry of `clouds.yaml`, merged with `secure.yaml`,
 * chosen by `--cloud NAME` or `OS_CLOUD`. Only what maps onto the sign-in chain is taken; the rest of
 * the chain's settings still come from flags, the environment and `--config`.
 */
import { lstatSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { readOwnedFileIfExistsSync, RefusedPath } from '../safe-read.js';
import { registerSecret } from '../secrets.js';
import { closest } from '../closest.js';
import { isRecord, mergeRecords } from '../records.js';

/** The sign-in settings a clouds.yaml entry gave, by their cloudgate names, and where it was read. */
export interface CloudSettings {
  name: string;
  file: string;
  secureFile?: string;
  /** cloudgate setting name (as in the `signin:` section) → value. */
  values: Record<string, string>;
  /** Which of `values` are secrets (never printed). */
  secrets: Set<string>;
  /** `cacert`, resolved against the current folder as the OpenStack client does. */
  caFile?: string;
  /** `verify: false`. */
  insecure: boolean;
  /** `auth.project_id`, when the entry names the project by id. */
  projectId?: string;
  /** Keys of the entry cloudgate does not use, for the report (`auth.username`, `region_name` ...). */
  unused: string[];
}

/** The folders the OpenStack client searches, in its order: the current folder, the user's, the system's. */
export function configFolders(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const home = env.HOME || homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config');
  return [cwd, join(xdg, 'openstack'), '/etc/openstack'];
}

/**
 * The first `clouds.yaml` (or `.yml`) found; `OS_CLIENT_CONFIG_FILE` names one directly. A link counts
 * as found, dangling or not: the read then refuses it by the ownership rule rather than looking further.
 */
function findFile(base: 'clouds' | 'secure', env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const direct = base === 'clouds' ? env.OS_CLIENT_CONFIG_FILE : env.OS_CLIENT_SECURE_FILE;
  if (direct) return resolve(cwd, direct);
  for (const folder of configFolders(env, cwd)) {
    for (const ext of ['yaml', 'yml']) {
      const path = join(folder, `${base}.${ext}`);
      if (lstatSync(path, { throwIfNoEntry: false })) return path;
    }
  }
  return undefined;
}

/** The cloud's name from `--cloud` or `OS_CLOUD`; undefined when neither is set. */
export function cloudName(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined) {
    if (flag.trim() === '') throw new UsageError('--cloud needs the name of an entry of clouds.yaml.', 'Give --cloud NAME, e.g. the name you give openstack --os-cloud.');
    return flag;
  }
  return env.OS_CLOUD || undefined;
}

type Mapping = Record<string, unknown>;

/**
 * The file's `clouds` mapping. It holds (or, with secure.yaml, receives) the client secret, and names
 * the servers it is sent to: read only where the ownership rule allows (a clouds.yaml another user put
 * in a shared working folder is refused, naming its owner), and refused with a character YAML forbids.
 */
async function readClouds(path: string, what: string): Promise<Mapping> {
  const [{ loadYaml }, { checkedVarsText }] = await Promise.all([import('../inventory/yaml-load.js'), import('../inventory/text-check.js')]);
  let read;
  try {
    read = readOwnedFileIfExistsSync(path, { what: `the file ${what}`, folderAdvice: 'Give the path of the file itself (OS_CLIENT_CONFIG_FILE), not its folder.' });
  } catch (error) {
    if (!(error instanceof RefusedPath)) throw error;
    throw new UsageError(error.message, `${error.advice} The OpenStack client reads ${what} from the current folder first: run from a folder of your own, or name your own file with ${what === 'clouds.yaml' ? 'OS_CLIENT_CONFIG_FILE' : 'OS_CLIENT_SECURE_FILE'}.`);
  }
  if (!read) throw new UsageError(`Cannot read ${what} ${path}: ENOENT.`, 'Check the path (OS_CLIENT_CONFIG_FILE, OS_CLIENT_SECURE_FILE).');
  const text = checkedVarsText(read, `the file ${what}`, path, 'the OpenStack client');
  const doc = loadYaml(text, { what, path, plain: true, advice: 'Fix the YAML syntax (the OpenStack client refuses it too).' }).value;
  if (doc === null || doc === undefined) return {};
  const clouds = isRecord(doc) ? doc.clouds : undefined;
  if (clouds === undefined) return {};
  if (!isRecord(clouds)) throw new UsageError(`${what} ${path}: "clouds" must be a mapping of cloud names.`);
  return clouds;
}


/** The auth types whose OpenID Connect client settings map onto the broker's client. */
const OIDC_TYPES = ['v3oidcclientcredentials', 'v3oidcaccesstoken', 'v3oidcpassword', 'v3oidcauthcode'];

/** The entry `--cloud` or `OS_CLOUD` names, read; undefined when neither is set. */
export async function cloudOf(given: string | undefined, env: NodeJS.ProcessEnv, cwd: string): Promise<CloudSettings | undefined> {
  const name = cloudName(given, env);
  return name === undefined ? undefined : readCloud(name, env, cwd);
}

/** Reads the entry `name`; a missing file or entry is a usage error naming what was searched. */
export async function readCloud(name: string, env: NodeJS.ProcessEnv, cwd: string): Promise<CloudSettings> {
  const file = findFile('clouds', env, cwd);
  if (!file) {
    throw new UsageError(`--cloud ${name}: no clouds.yaml found (looked in ${configFolders(env, cwd).join(', ')}).`,
      'Put clouds.yaml in one of these folders, or name it with OS_CLIENT_CONFIG_FILE.');
  }
  const clouds = await readClouds(file, 'clouds.yaml');
  const secureFile = findFile('secure', env, cwd);
  const secure = secureFile ? await readClouds(secureFile, 'secure.yaml') : {};
  if (!isRecord(clouds[name])) {
    const guess = closest(name, Object.keys(clouds));
    throw new UsageError(`--cloud ${name}: ${file} has no cloud "${name}" (it has: ${Object.keys(clouds).join(', ') || 'none'}).`,
      guess ? `Did you mean --cloud ${guess}?` : 'Give the name of one of its entries.');
  }
  // secure.yaml's entry laid over clouds.yaml's, as openstacksdk does.
  const entry = mergeRecords(clouds[name], secure[name]);
  return { name, file, ...(secureFile && isRecord(secure[name]) ? { secureFile } : {}), ...mapEntry(entry, cwd) };
}

/** The entry's keys → cloudgate's settings; pure, for tests. */
export function mapEntry(entry: Mapping, cwd: string): Omit<CloudSettings, 'name' | 'file' | 'secureFile'> {
  const auth = isRecord(entry.auth) ? entry.auth : {};
  const values: Record<string, string> = {};
  const secrets = new Set<string>();
  const used = new Set<string>();
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const take = (setting: string, key: string, from: Mapping, prefix = '', secret = false) => {
    const value = text(from[key]);
    if (value === undefined || value === '') return;
    used.add(prefix + key);
    if (values[setting] !== undefined) return;
    values[setting] = value;
    if (secret) {
      secrets.add(setting);
      registerSecret(value);
    }
  };
  take('identity_url', 'auth_url', auth, 'auth.');
  take('idp_id', 'identity_provider', auth, 'auth.');
  take('protocol', 'protocol', auth, 'auth.');
  take('project', 'project_id', auth, 'auth.');
  take('project', 'project_name', auth, 'auth.');
  take('project_domain', 'project_domain_id', auth, 'auth.');
  take('project_domain', 'project_domain_name', auth, 'auth.');
  take('region', 'region_name', entry);
  take('interface', 'interface', entry);
  const authType = text(entry.auth_type);
  if (authType !== undefined) used.add('auth_type');
  if (authType && OIDC_TYPES.includes(authType)) {
    // The OpenStack client asks the broker (the identity service's OpenID provider) directly with this client.
    take('client_id', 'client_id', auth, 'auth.');
    take('client_secret', 'client_secret', auth, 'auth.', true);
    const endpoint = text(auth.access_token_endpoint) ?? text(auth.discovery_endpoint);
    const broker = endpoint ? brokerOf(endpoint) : undefined;
    if (broker) {
      values.broker_url ??= broker.url;
      values.realm ??= broker.realm;
      used.add(auth.access_token_endpoint !== undefined ? 'auth.access_token_endpoint' : 'auth.discovery_endpoint');
    }
    if (auth.access_token !== undefined) registerSecret(text(auth.access_token));
  }
  for (const key of ['password', 'access_token', 'client_secret', 'application_credential_secret']) registerSecret(text(auth[key]));
  const cacert = text(entry.cacert);
  if (cacert) used.add('cacert');
  const verify = entry.verify;
  if (verify !== undefined) used.add('verify');
  const unused = [
    ...Object.keys(entry).filter((k) => k !== 'auth' && !used.has(k)),
    ...Object.keys(auth).filter((k) => !used.has(`auth.${k}`)).map((k) => `auth.${k}`),
  ];
  const projectId = text(auth.project_id) || undefined;
  return { values, secrets, ...(projectId ? { projectId } : {}), ...(cacert ? { caFile: resolve(cwd, cacert) } : {}), insecure: verify === false || verify === 'false', unused };
}

/** `https://kc.example/realms/cloud/protocol/openid-connect/token` → the broker's base URL and realm. */
export function brokerOf(endpoint: string): { url: string; realm: string } | undefined {
  const match = /^(https?:\/\/[^?#]+?)\/realms\/([^/?#]+)(?:[/?#]|$)/.exec(endpoint);
  return match ? { url: match[1], realm: decodeURIComponent(match[2]) } : undefined;
}

/** Where the cloud entry lives, for messages. */
export function cloudSource(cloud: CloudSettings): string {
  return cloud.secureFile ? `${cloud.file} (and ${dirname(cloud.secureFile) === dirname(cloud.file) ? 'secure.yaml' : cloud.secureFile})` : cloud.file;
}
