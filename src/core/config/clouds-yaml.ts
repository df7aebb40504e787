/**
 * The OpenStack client's own configuration: an entry of `clouds.yaml`, with `secure.yaml` laid over it,
 * chosen by `--cloud NAME` or `OS_CLOUD`, read as openstacksdk reads it (clouds-files.ts finds the files,
 * clouds-normalise.ts reads the spellings). Its auth type says which chain the OpenStack client signs in
 * with; its options become the sign-in chain's settings, by their cloudgate names.
 */
import { dirname, resolve } from 'node:path';
import { expandTilde } from '../home-path.js';
import { UsageError } from '../errors.js';
import { registerSecret } from '../secrets.js';
import { closest } from '../closest.js';
import { isRecord, mergeRecords } from '../records.js';
import { configFolders, findCloudsFile, readCloudsMapping } from './clouds-files.js';
import { normaliseEntry } from './clouds-normalise.js';

export { configFolders } from './clouds-files.js';

/** The sign-in settings a clouds.yaml entry gave, by their cloudgate names, and where it was read. */
export interface CloudSettings {
  name: string;
  /** The clouds.yaml read; undefined when the cloud is only in secure.yaml. */
  file?: string;
  secureFile?: string;
  /** cloudgate setting name (as in the `signin:` section) → value. */
  values: Record<string, string>;
  /** Setting name → the entry's key it came from (`auth.project_name`), for reports. */
  keys: Record<string, string>;
  /** Which of `values` are secrets (never printed). */
  secrets: Set<string>;
  /** `cacert` (or a `verify` that names a file), `~` expanded and resolved against the current folder, as the OpenStack client does. */
  caFile?: string;
  /** `verify: false` or `insecure: true`. */
  insecure: boolean;
  /** Keys of the entry cloudgate does not use (`auth.username` of a password entry, `api_timeout` ...). */
  unused: string[];
  /** What the OpenStack client makes of the entry that is worth saying (never a value). */
  notes: string[];
}

/** The cloud's name from `--cloud` or `OS_CLOUD`; undefined when neither is set. */
export function cloudName(flag: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (flag !== undefined) {
    if (flag.trim() === '')
      throw new UsageError(
        '--cloud needs the name of an entry of clouds.yaml.',
        'Give --cloud NAME, e.g. the name you give openstack --os-cloud.',
      );
    return flag;
  }
  return env.OS_CLOUD || undefined;
}

/** The OpenID Connect auth types of keystoneauth: each is a sign-in chain of its own (see signin's chain). */
export const OIDC_AUTH_TYPES = [
  'v3oidcclientcredentials',
  'v3oidcpassword',
  'v3oidcaccesstoken',
  'v3oidcauthcode',
  'v3oidcdeviceauthz',
] as const;
const isOidc = (type: string | undefined) => OIDC_AUTH_TYPES.some((t) => t === type);

/** The entry `--cloud` or `OS_CLOUD` names, read; undefined when neither is set. */
export async function cloudOf(
  given: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<CloudSettings | undefined> {
  const name = cloudName(given, env);
  return name === undefined ? undefined : readCloud(name, env, cwd);
}

/** The clouds.yaml and secure.yaml found, and their `clouds` mappings. */
async function readBoth(env: NodeJS.ProcessEnv, cwd: string) {
  const file = findCloudsFile('clouds', env, cwd);
  const secureFile = findCloudsFile('secure', env, cwd);
  const clouds = file ? await readCloudsMapping(file, 'clouds.yaml') : {};
  const secure = secureFile ? await readCloudsMapping(secureFile, 'secure.yaml') : {};
  return { file, secureFile, clouds, secure };
}

/** The names of the clouds the OpenStack client knows here (clouds.yaml's and secure.yaml's); [] when none. */
export async function cloudNames(env: NodeJS.ProcessEnv, cwd: string): Promise<string[]> {
  const { clouds, secure } = await readBoth(env, cwd);
  return [...new Set([...Object.keys(clouds), ...Object.keys(secure)])];
}

/** Reads the entry `name`; a missing file or entry is a usage error naming what was searched and where the name came from (`via`). */
export async function readCloud(
  name: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
  via = `--cloud ${name}`,
): Promise<CloudSettings> {
  const { file, secureFile, clouds, secure } = await readBoth(env, cwd);
  if (!file && !isRecord(secure[name])) {
    const named = env.OS_CLIENT_CONFIG_FILE ? `${resolve(cwd, env.OS_CLIENT_CONFIG_FILE)}, then ` : '';
    throw new UsageError(
      `${via}: no clouds.yaml found (looked for ${named}clouds.yaml, clouds.yml and clouds.json in ${configFolders(env, cwd).join(', ')}).`,
      'Put clouds.yaml in one of these folders, or name it with OS_CLIENT_CONFIG_FILE.',
    );
  }
  if (!isRecord(clouds[name]) && !isRecord(secure[name])) {
    const names = [...new Set([...Object.keys(clouds), ...Object.keys(secure)])];
    const guess = closest(name, names);
    // The OpenStack client's own words: "Cloud NAME was not found."
    throw new UsageError(
      `${via}: cloud "${name}" was not found in ${file ?? secureFile} (it has: ${names.join(', ') || 'none'}).`,
      guess ? `Did you mean --cloud ${guess}?` : 'Give the name of one of its entries.',
    );
  }
  // secure.yaml's entry laid over clouds.yaml's, recursively, as openstacksdk does.
  const entry = mergeRecords(isRecord(clouds[name]) ? clouds[name] : {}, secure[name]);
  const inClouds = isRecord(clouds[name]);
  return {
    name,
    ...(inClouds && file ? { file } : {}),
    ...(secureFile && isRecord(secure[name]) ? { secureFile } : {}),
    ...mapEntry(entry, cwd, env),
  };
}

/** Where each auth option goes, by auth type: clouds.yaml's name → cloudgate's setting. */
const OIDC_OPTIONS: Record<string, [option: string, setting: string, secret?: boolean][]> = {
  common: [
    ['client_id', 'client_id'],
    ['client_secret', 'client_secret', true],
    ['access_token_endpoint', 'token_endpoint'],
    ['discovery_endpoint', 'discovery_endpoint'],
    ['openid_scope', 'openid_scope'],
    ['scope', 'openid_scope'],
    ['access_token_type', 'access_token_type'],
  ],
  v3oidcpassword: [
    ['username', 'username'],
    ['password', 'password', true],
  ],
  v3oidcaccesstoken: [['access_token', 'access_token', true]],
};

/** The entry's keys → cloudgate's settings; pure but for registering secrets, for tests. */
export function mapEntry(
  raw: Record<string, unknown>,
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Omit<CloudSettings, 'name' | 'file' | 'secureFile'> {
  const { top, auth, keyOf, authType, regions, notes } = normaliseEntry(raw);
  const values: Record<string, string> = {};
  const keys: Record<string, string> = {};
  const secrets = new Set<string>();
  const used = new Set<string>();
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
  const put = (setting: string, value: string | undefined, key: string, secret = false) => {
    if (value === undefined || value === '' || values[setting] !== undefined) return;
    values[setting] = value;
    keys[setting] = key;
    if (secret) {
      secrets.add(setting);
      registerSecret(value);
    }
  };
  const fromAuth = (option: string, setting: string, secret = false) => {
    if (auth[option] === undefined) return;
    used.add(keyOf[option]);
    put(setting, text(auth[option]), keyOf[option], secret);
  };
  fromAuth('auth_url', 'identity_url');
  fromAuth('identity_provider', 'idp_id');
  fromAuth('protocol', 'protocol');
  fromAuth('project_id', 'project');
  fromAuth('project_name', 'project');
  fromAuth('project_domain_id', 'project_domain');
  fromAuth('project_domain_name', 'project_domain');
  if (regions.length) {
    put('region', regions[0], top.region_name !== undefined ? 'region_name' : 'regions');
    used.add(top.region_name !== undefined ? 'region_name' : 'regions');
  }
  const iface = first(top.interface);
  if (iface !== undefined) {
    put('interface', text(iface), 'interface');
    used.add('interface');
  }
  if (authType !== undefined) {
    used.add('auth_type');
    if (isOidc(authType)) put('auth_type', authType, 'auth_type');
  }
  if (isOidc(authType)) {
    for (const [option, setting, secret] of [...OIDC_OPTIONS.common, ...(OIDC_OPTIONS[authType!] ?? [])])
      fromAuth(option, setting, secret);
    if (authType === 'v3oidcauthcode' || authType === 'v3oidcdeviceauthz')
      for (const option of ['code', 'redirect_uri', 'device_authorization_endpoint', 'code_challenge_method'])
        if (auth[option] !== undefined) used.add(keyOf[option]);
    // keystoneauth refuses a project name without its domain before it sends anything.
    if (values.project !== undefined && keys.project.endsWith('project_name') && values.project_domain === undefined) {
      notes.push(
        'project_name without project_domain_id or project_domain_name: the OpenStack client refuses it ("a project_name is only unique within a domain"); cloudgate picks the project from the user\'s list.',
      );
    }
  }
  // Every credential is a secret wherever it sits, whether cloudgate uses it or not.
  for (const key of [
    'password',
    'access_token',
    'client_secret',
    'application_credential_secret',
    'token',
    'code',
    'passcode',
  ])
    registerSecret(text(auth[key]));

  const { caFile, insecure, tlsNotes } = tlsOf(top, cwd, env);
  notes.push(...tlsNotes);
  put('ca_file', caFile, typeof top.cacert === 'string' ? 'cacert' : 'verify');
  for (const key of ['cacert', 'verify', 'insecure']) if (top[key] !== undefined) used.add(key);
  const unused = [
    ...Object.keys(top).filter((k) => !used.has(k)),
    ...Object.keys(auth)
      .filter((k) => !used.has(keyOf[k]))
      .map((k) => keyOf[k]),
  ];
  return { values, keys, secrets, ...(caFile ? { caFile } : {}), insecure, unused, notes };
}

/** A value or the first of a list (`interface: [internal, public]`). */
function first(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const items: unknown[] = value;
  return items[0];
}

/** `~` and `~/...` as the user's home (openstacksdk expands the CA path); other paths against the current folder. */
export function expandHome(path: string, env: NodeJS.ProcessEnv, cwd: string): string {
  return resolve(cwd, expandTilde(path, env));
}

/**
 * TLS as the OpenStack client's session sets it: `insecure: true` (or the string "true") turns
 * verification off and wins; `verify: false` too; `cacert` names the CA bundle of every request; a
 * `verify` that is a string is a CA path to it, even "false".
 */
function tlsOf(
  top: Record<string, unknown>,
  cwd: string,
  env: NodeJS.ProcessEnv,
): { caFile?: string; insecure: boolean; tlsNotes: string[] } {
  const tlsNotes: string[] = [];
  const insecure =
    top.insecure === true ||
    (typeof top.insecure === 'string' && top.insecure.toLowerCase() === 'true') ||
    top.verify === false;
  let ca = typeof top.cacert === 'string' && top.cacert ? top.cacert : undefined;
  if (typeof top.verify === 'string') {
    tlsNotes.push(
      `verify: "${top.verify}" is a string, which the OpenStack client takes as the path of a CA file${ca ? ' (cacert wins)' : ''}: write verify: false (no quotes) to turn verification off.`,
    );
    ca ??= top.verify;
  }
  if (top.cert !== undefined || top.key !== undefined)
    tlsNotes.push('cert and key (a client TLS certificate) are not sent by cloudgate.');
  return { ...(ca ? { caFile: expandHome(ca, env, cwd) } : {}), insecure, tlsNotes };
}

/** `https://kc.example/realms/cloud/protocol/openid-connect/token` → the broker's base URL and realm. */
export function brokerOf(endpoint: string): { url: string; realm: string } | undefined {
  const match = /^(https?:\/\/[^?#]+?)\/realms\/([^/?#]+)(?:[/?#]|$)/.exec(endpoint);
  return match ? { url: match[1], realm: decodeURIComponent(match[2]) } : undefined;
}

/** Where the cloud entry lives, for messages. */
export function cloudSource(cloud: CloudSettings): string {
  if (!cloud.file) return cloud.secureFile ?? 'secure.yaml';
  return cloud.secureFile
    ? `${cloud.file} (and ${dirname(cloud.secureFile) === dirname(cloud.file) ? 'secure.yaml' : cloud.secureFile})`
    : cloud.file;
}
