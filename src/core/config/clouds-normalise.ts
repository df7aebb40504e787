/**
 * A clouds.yaml entry in the spellings openstacksdk reads as the same: `-` and `_` in keys, the old
 * `tenant_*` and `endpoint_type` names, options under `auth:` or at the entry's top level, the
 * `domain_id`/`domain_name` shorthand, `{placeholders}` in `auth_url`, and several regions. Pure: the
 * entry goes in, the entry openstacksdk would hand to its auth plugin comes out, with notes where the
 * OpenStack client itself reads the entry otherwise than its documentation suggests.
 */
import { asRecord, isRecord } from '../records.js';

type Mapping = Record<string, unknown>;

export interface NormalisedEntry {
  /** The entry's top-level keys, `-` replaced by `_` (the `auth` mapping and `auth_type` taken out). */
  top: Mapping;
  /** The auth plugin's options: `auth:` first, then the same name at the top level. */
  auth: Mapping;
  /** Where each option of `auth` was written (`auth.project_name`, `tenant-name` ...), for reports. */
  keyOf: Record<string, string>;
  authType?: string;
  /** The regions named, the first being the one used. */
  regions: string[];
  /** What the OpenStack client makes of the entry that is worth saying (never a value). */
  notes: string[];
}

/** Every key of a mapping, nested too, with `-` as `_` (openstacksdk's normalize_keys). */
function underscored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(underscored);
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll('-', '_'), underscored(v)]));
}

/** Old names of auth options, as openstacksdk's _fix_backwards_auth maps them. */
const ALIASES: Record<string, string> = {
  tenant_id: 'project_id',
  tenant_name: 'project_name',
  auth_token: 'token',
  authorization_code: 'code',
};

/** The auth options cloudgate reads (others stay where they are, reported as unused). */
const AUTH_OPTIONS = [
  'auth_url',
  'identity_provider',
  'protocol',
  'project_id',
  'project_name',
  'project_domain_id',
  'project_domain_name',
  'domain_id',
  'domain_name',
  'user_domain_id',
  'user_domain_name',
  'client_id',
  'client_secret',
  'access_token_endpoint',
  'discovery_endpoint',
  'openid_scope',
  'scope',
  'access_token_type',
  'access_token',
  'username',
  'password',
  'code',
  'redirect_uri',
  'idp_otp_key',
  'token',
  'trust_id',
  'system_scope',
];

const text = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;

export function normaliseEntry(raw: Mapping): NormalisedEntry {
  const notes: string[] = [];
  // The OpenStack client applies its fixes before it normalises the keys: a top-level "auth-type" is never
  // read, and the default auth type, password, is used (tried with openstack --os-cloud).
  if (raw['auth-type'] !== undefined && raw.auth_type === undefined) {
    notes.push(
      '"auth-type" (with a dash) at the top of the entry is ignored by the OpenStack client, which then uses auth type password: write auth_type.',
    );
  }
  const dashedTop = Object.fromEntries(Object.entries(raw).filter(([k]) => k !== 'auth-type'));
  const entry = asRecord(underscored(dashedTop)) ?? {};
  const authSection = isRecord(entry.auth) ? { ...entry.auth } : {};
  const top: Mapping = { ...entry };
  delete top.auth;

  let authType = text(top.auth_type);
  delete top.auth_type;
  if (top.auth_plugin !== undefined) {
    // auth_plugin is auth_type's old name; the defaults' auth_type (password) wins over it.
    if (!authType)
      notes.push(
        'auth_plugin is an old name the OpenStack client no longer honours (its default auth type, password, wins): write auth_type.',
      );
    delete top.auth_plugin;
  }
  if (authType === 'None' || authType === '') authType = 'none';

  const auth: Mapping = {};
  const keyOf: Record<string, string> = {};
  const take = (name: string, from: Mapping, prefix: string, written: string) => {
    if (auth[name] !== undefined || from[written] === undefined || from[written] === null || from[written] === '')
      return;
    auth[name] = from[written];
    keyOf[name] = prefix + written;
    delete from[written];
  };
  for (const [from, prefix] of [
    [authSection, 'auth.'],
    [top, ''],
  ] as const) {
    for (const name of AUTH_OPTIONS) take(name, from, prefix, name);
    for (const [old, name] of Object.entries(ALIASES)) take(name, from, prefix, old);
  }
  // What the auth section holds beyond the options cloudgate reads stays visible as unused.
  for (const [k, v] of Object.entries(authSection)) {
    if (!(k in auth)) {
      auth[k] = v;
      keyOf[k] = `auth.${k}`;
    }
  }

  // domain_id / domain_name: with a project, the domain of the project (and of the user); else a domain scope.
  for (const kind of ['id', 'name'] as const) {
    const shorthand = auth[`domain_${kind}`];
    if (shorthand === undefined || (auth.project_id === undefined && auth.project_name === undefined)) continue;
    if (auth.project_domain_id === undefined && auth.project_domain_name === undefined) {
      auth[`project_domain_${kind}`] = shorthand;
      keyOf[`project_domain_${kind}`] = keyOf[`domain_${kind}`];
    }
    if (authType?.startsWith('v3oidc')) {
      notes.push(
        `${keyOf[`domain_${kind}`]} beside a project is copied to the user's domain too, which the OpenStack client's OpenID Connect auth types refuse ("unexpected keyword argument 'user_domain_${kind}'"): write project_domain_${kind} instead.`,
      );
    }
    delete auth[`domain_${kind}`];
  }

  // {placeholders} in auth_url, filled from the entry's own values.
  const url = text(auth.auth_url);
  if (url?.includes('{')) {
    auth.auth_url = url.replace(/\{(\w+)\}/g, (whole, key: string) => text(top[key]) ?? text(auth[key]) ?? whole);
  }

  if (top.endpoint_type !== undefined && top.interface === undefined) top.interface = top.endpoint_type;
  delete top.endpoint_type;

  if (top.profile !== undefined || top.cloud !== undefined) {
    notes.push(
      `profile "${text(top.profile ?? top.cloud) ?? '?'}" (a vendor profile) is not read by cloudgate: write the values it holds into the entry.`,
    );
  }
  return { top, auth, keyOf, ...(authType ? { authType } : {}), regions: regionsOf(top), notes };
}

/** `region_name` as a name, a list or a comma-separated string, or `regions:`: the first is the one used. */
function regionsOf(top: Mapping): string[] {
  const listed = (v: unknown): string[] => {
    if (Array.isArray(v))
      return v.map((r) => (isRecord(r) ? text(r.name) : text(r))).filter((r): r is string => Boolean(r));
    const t = text(v);
    return t
      ? t
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean)
      : [];
  };
  const named = listed(top.region_name);
  return named.length ? named : listed(top.regions);
}
