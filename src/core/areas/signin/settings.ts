import {
  resolveSetting,
  type Origin,
  type OriginKind,
  type SettingSpec,
  type SettingSources as SettingsSource,
} from '../../config/setting-schema.js';
import { SIGNIN_SETTINGS } from '../../config/setting-specs/signin.js';
import { cloudSource, OIDC_AUTH_TYPES } from '../../config/clouds-yaml.js';

/**
 * How the chain obtains the token it presents to the identity service (the broker token):
 * `exchange` a subject token at the broker (the platform's chain), or one of the OpenStack client's
 * OpenID Connect auth types, each asking the broker's token endpoint directly (`client_credentials`,
 * `password`), bringing the token (`access_token`), or needing a person (`authorization_code`).
 */
export type BrokerGrant = 'exchange' | 'client_credentials' | 'password' | 'access_token' | 'authorization_code';

const GRANT_OF: Record<(typeof OIDC_AUTH_TYPES)[number], BrokerGrant> = {
  v3oidcclientcredentials: 'client_credentials',
  v3oidcpassword: 'password',
  v3oidcaccesstoken: 'access_token',
  v3oidcauthcode: 'authorization_code',
  v3oidcdeviceauthz: 'authorization_code',
};

/** Whether a project or domain was named by id, by name, or by a value that may be either (`--project`). */
export type NamedBy = 'id' | 'name' | 'either';

/** The sign-in chain's settings, resolved from flags, environment, clouds.yaml and the `signin:` section. */
export interface SigninSettings {
  grant: BrokerGrant;
  /** The auth type as given (clouds.yaml's `auth_type`, OS_AUTH_TYPE), when it is an OpenID Connect one. */
  authType?: string;
  brokerUrl?: string;
  realm?: string;
  /** The broker's token endpoint, when given; else the Keycloak path under broker_url and realm. */
  tokenEndpoint?: string;
  discoveryEndpoint?: string;
  clientId?: string;
  clientSecret?: string;
  /** The scope of the direct grants (client credentials, password). */
  openidScope: string;
  /** Which token of the broker's answer the identity service gets. */
  accessTokenType: string;
  username?: string;
  password?: string;
  /** `v3oidcaccesstoken`: the broker token itself. */
  accessToken?: string;
  subjectToken?: string;
  idpTokenUrl?: string;
  idpClientId?: string;
  idpClientSecret?: string;
  idpScope?: string;
  subjectIssuer?: string;
  /** Without a trailing `/v3`: paths are built as `{identityUrl}/v3/...`. */
  identityUrl?: string;
  federationPrefix: string;
  idpId?: string;
  protocol: string;
  project?: string;
  projectBy: NamedBy;
  /** The project's domain: with a project name, the scope names it as keystoneauth does. */
  projectDomain?: string;
  projectDomainBy: NamedBy;
  /** The region and interface of the catalog endpoint the last step calls (as the OpenStack client's). */
  region?: string;
  interface?: string;
  /** `project` is surely an id (OS_PROJECT_ID, clouds.yaml project_id, or 32 hex digits): scoping can go ahead without the list. */
  projectIsId: boolean;
  apiService: string;
  /** How mod_auth_openidc names the claims it passes on (its `OIDCClaimPrefix`); `explicit` when set by the operator. */
  claimPrefix: { value: string; explicit: boolean };
  /** Read-only identity admin credentials for reading the federation mapping (`signin.claims`); all optional. */
  admin: AdminCredentials;
}

/** The OpenStack client's password or application-credential sign-in, for reading the mapping. */
export interface AdminCredentials {
  username?: string;
  password?: string;
  userDomainName?: string;
  projectName?: string;
  projectDomainName?: string;
  /** `OS_SYSTEM_SCOPE=all`: a system-scoped token instead of a project. */
  systemScope?: string;
  applicationCredentialId?: string;
  applicationCredentialSecret?: string;
}

export const DEFAULT_CLAIM_PREFIX = 'OIDC_CLAIM_';

const SPECS = new Map(SIGNIN_SETTINGS.map((s) => [s.name, s]));
const specOf = (name: string): SettingSpec => SPECS.get(name)!;

/** The spec with some of its environment variables left out (the OpenStack names that mean something else in this chain). */
const without = (spec: SettingSpec, names: string[]): SettingSpec => ({
  ...spec,
  env: (spec.env ?? []).filter((n) => !names.includes(n)),
});

/** Whether a value came from the environment variable `name`. */
const fromEnv = (origin: Origin | undefined, ...names: string[]) =>
  origin?.kind === 'environment' && names.includes(origin.where ?? '');

export function readSigninSettings(input: SettingsSource): SigninSettings {
  const get = (name: string, spec: SettingSpec = specOf(name)) => resolveSetting(spec, input);
  const value = (name: string, spec?: SettingSpec) => get(name, spec).value;

  const authType = value('auth_type');
  // OS_AUTH_TYPE=password (an admin openrc) is no chain of the broker's: the chain stays the exchange.
  const oidcType = OIDC_AUTH_TYPES.find((t) => t === authType);
  const grant: BrokerGrant = oidcType ? GRANT_OF[oidcType] : 'exchange';
  // OS_USERNAME and OS_PASSWORD are the broker user's with v3oidcpassword, the identity admin's otherwise.
  const userVars = ['OS_USERNAME', 'OS_PASSWORD'];
  const own = (name: string) => (grant === 'password' ? specOf(name) : without(specOf(name), userVars));
  const admin = (name: string) => (grant === 'password' ? without(specOf(name), userVars) : specOf(name));

  const project = get('project');
  const domain = get('project_domain');
  // An admin openrc's project domain is not the chain's, unless the chain's project came from it too.
  const domainCounts =
    !fromEnv(domain.origin, 'OS_PROJECT_DOMAIN_ID', 'OS_PROJECT_DOMAIN_NAME') ||
    fromEnv(project.origin, 'OS_PROJECT_ID', 'OS_PROJECT_NAME');
  const projectBy = namedBy(project.origin, 'OS_PROJECT_ID', 'OS_PROJECT_NAME', 'project_id', 'project_name');
  const projectDomain = domainCounts ? domain.value : undefined;
  const projectIsId = project.value !== undefined && (projectBy === 'id' || /^[0-9a-f]{32}$/i.test(project.value));
  return {
    grant,
    ...(oidcType ? { authType: oidcType } : {}),
    brokerUrl: trimSlash(value('broker_url')),
    realm: value('realm'),
    tokenEndpoint: value('token_endpoint'),
    discoveryEndpoint: value('discovery_endpoint'),
    clientId: value('client_id'),
    clientSecret: value('client_secret'),
    openidScope: value('openid_scope') ?? 'openid profile',
    accessTokenType: value('access_token_type') ?? 'access_token',
    username: value('username', own('username')),
    password: value('password', own('password')),
    accessToken: value('access_token'),
    subjectToken: value('subject_token'),
    idpTokenUrl: value('idp_token_url'),
    idpClientId: value('idp_client_id'),
    idpClientSecret: value('idp_client_secret'),
    idpScope: value('idp_scope'),
    subjectIssuer: value('subject_issuer'),
    identityUrl: identityBase(value('identity_url')),
    federationPrefix: value('federation_prefix') ?? 'OS',
    idpId: value('idp_id'),
    protocol: value('protocol') ?? 'openid',
    project: project.value,
    projectBy: projectIsId ? 'id' : projectBy,
    projectDomain,
    projectDomainBy: projectDomain === undefined ? 'either' : domainBy(domain.origin, projectDomain),
    region: value('region'),
    interface: value('interface'),
    projectIsId,
    apiService: value('api_service') ?? 'compute',
    claimPrefix: claimPrefix(value('claim_prefix')),
    admin: {
      username: value('admin_username', admin('admin_username')),
      password: value('admin_password', admin('admin_password')),
      userDomainName: value('admin_user_domain_name'),
      projectName: value('admin_project_name'),
      projectDomainName: value('admin_project_domain_name'),
      systemScope: value('admin_system_scope'),
      applicationCredentialId: value('admin_application_credential_id'),
      applicationCredentialSecret: value('admin_application_credential_secret'),
    },
  };
}

/** Id or name, from the variable or clouds.yaml key the value came from. */
function namedBy(origin: Origin | undefined, idVar: string, nameVar: string, idKey: string, nameKey: string): NamedBy {
  if (fromEnv(origin, idVar) || (origin?.kind === 'clouds.yaml' && origin.where?.endsWith(idKey))) return 'id';
  if (fromEnv(origin, nameVar) || (origin?.kind === 'clouds.yaml' && origin.where?.endsWith(nameKey))) return 'name';
  return 'either';
}

/** A domain named by a setting that may hold either: `default` and 32 hex digits are ids (Keystone's default domain's id is `default`). */
function domainBy(origin: Origin | undefined, value: string): NamedBy {
  const by = namedBy(
    origin,
    'OS_PROJECT_DOMAIN_ID',
    'OS_PROJECT_DOMAIN_NAME',
    'project_domain_id',
    'project_domain_name',
  );
  if (by !== 'either') return by;
  return value === 'default' || /^[0-9a-f]{32}$/i.test(value) ? 'id' : 'name';
}

function claimPrefix(value: string | undefined): SigninSettings['claimPrefix'] {
  return value ? { value, explicit: true } : { value: DEFAULT_CLAIM_PREFIX, explicit: false };
}

function trimSlash(url: string | undefined): string | undefined {
  return url?.replace(/\/+$/, '');
}

/** `OS_AUTH_URL` comes with or without `/v3`; the chain adds it itself. */
export function identityBase(url: string | undefined): string | undefined {
  return trimSlash(url)?.replace(/\/v3$/, '');
}

/** Whether the subject token comes from a client credentials grant at the identity provider. */
export function usesIdpCredentials(s: SigninSettings): boolean {
  return Boolean(s.idpTokenUrl || s.idpClientId || s.idpClientSecret);
}

/** Whether anything at all of the sign-in chain is configured (otherwise every step is skipped). */
export function isConfigured(s: SigninSettings): boolean {
  return Boolean(
    s.brokerUrl ||
    s.identityUrl ||
    s.subjectToken ||
    usesIdpCredentials(s) ||
    s.clientId ||
    s.tokenEndpoint ||
    s.accessToken ||
    s.grant !== 'exchange',
  );
}

/** Whether the broker's token endpoint is known: given, found through discovery, or built from broker_url and realm. */
export function knowsTokenEndpoint(s: SigninSettings): boolean {
  return Boolean(s.tokenEndpoint || s.discoveryEndpoint || (s.brokerUrl && s.realm));
}

/** Names of the settings a step needs but lacks, as the operator writes them. */
export function missing(s: SigninSettings, keys: (keyof SigninSettings)[]): string[] {
  return keys.filter((k) => !s[k]).map((k) => NAMES[k] ?? k);
}

/** The broker's token endpoint, as the operator names it when it is missing. */
export const ENDPOINT_NAMES = 'token_endpoint (or discovery_endpoint, or broker_url and realm)';

const NAMES: Partial<Record<keyof SigninSettings, string>> = {
  brokerUrl: 'broker_url',
  realm: 'realm',
  tokenEndpoint: ENDPOINT_NAMES,
  clientId: 'client_id',
  clientSecret: 'client_secret',
  username: 'username',
  password: 'password',
  accessToken: 'access_token',
  subjectToken: 'subject_token',
  idpTokenUrl: 'idp_token_url',
  idpClientId: 'idp_client_id',
  idpClientSecret: 'idp_client_secret',
  identityUrl: 'identity_url (or OS_AUTH_URL)',
  idpId: 'idp_id (or OS_IDENTITY_PROVIDER)',
};

/** Where each of the chain's settings was found (never a value), and which the chain still lacks. */
export interface SettingsReport {
  found: { name: string; origin: OriginKind; where?: string }[];
  missing: string[];
}

/** The settings each way of getting the broker token needs, as the operator names them. */
function neededFor(s: SigninSettings, has: (name: string) => boolean): string[] {
  const endpoint =
    has('token_endpoint') || has('discovery_endpoint') || (has('broker_url') && has('realm')) ? [] : [ENDPOINT_NAMES];
  const need = (...names: string[]) => names.filter((n) => !has(n));
  const identity = need('identity_url', 'idp_id');
  switch (s.grant) {
    case 'client_credentials':
      return [...endpoint, ...need('client_id', 'client_secret'), ...identity];
    case 'password':
      return [...endpoint, ...need('client_id', 'username', 'password'), ...identity];
    case 'access_token':
      return [...need('access_token'), ...identity];
    case 'authorization_code':
      return identity;
    default: {
      const subject =
        has('subject_token') || (has('idp_token_url') && has('idp_client_id') && has('idp_client_secret'));
      const exchangeEndpoint =
        has('token_endpoint') || (has('broker_url') && has('realm')) ? [] : need('broker_url', 'realm');
      return [
        ...exchangeEndpoint,
        ...need('client_id', 'client_secret'),
        ...identity,
        ...(subject ? [] : ['subject_token (or idp_token_url, idp_client_id, idp_client_secret)']),
      ];
    }
  }
}

/** The chain's own settings (not signin.claims' admin credentials, not the ones with a default only). */
const CHAIN_SETTINGS = SIGNIN_SETTINGS.filter((s) => !s.name.startsWith('admin_') && s.name !== 'claim_prefix');

export function signinSettingsReport(input: SettingsSource): SettingsReport {
  const s = readSigninSettings(input);
  const found = CHAIN_SETTINGS.flatMap((spec) => {
    const origin = resolveSetting(spec, input, { read: false }).origin;
    return origin && origin.kind !== 'default'
      ? [{ name: spec.name, origin: origin.kind, ...(origin.where ? { where: origin.where } : {}) }]
      : [];
  });
  const has = (name: string) => found.some((f) => f.name === name);
  return { found, missing: neededFor(s, has) };
}

/** What a grant is called in reports. */
export const GRANT_WORDS: Record<BrokerGrant, string> = {
  exchange: 'token exchange of a subject token',
  client_credentials: "client credentials at the broker's token endpoint",
  password: "a user's password at the broker's token endpoint",
  access_token: 'an access token given as the broker token',
  authorization_code: 'an authorization code (interactive)',
};

/** The lines `doctor` and `token` print on stderr when a clouds.yaml entry is used. */
export function cloudSettingsLines(input: SettingsSource): string[] {
  if (!input.cloud) return [];
  const report = signinSettingsReport(input);
  const s = readSigninSettings(input);
  const by = (origin: OriginKind) => report.found.filter((f) => f.origin === origin).map((f) => f.name);
  const type = s.authType ? `auth type ${s.authType}: ` : '';
  const lines = [
    `Sign-in settings from clouds.yaml cloud "${input.cloud.name}" (${cloudSource(input.cloud)}): ${by('clouds.yaml').join(', ') || 'none'}.`,
    `The chain: ${type}${GRANT_WORDS[s.grant]}.`,
  ];
  for (const origin of ['flag', 'environment', 'config file'] as const)
    if (by(origin).length) lines.push(`From the ${origin}: ${by(origin).join(', ')}.`);
  if (input.cloud.caFile) lines.push(`CA file from clouds.yaml (cacert): ${input.cloud.caFile}.`);
  if (input.cloud.insecure)
    lines.push('clouds.yaml says verify: false (or insecure: true): TLS certificates are NOT verified.');
  for (const note of input.cloud.notes) lines.push(`Note: ${note}`);
  if (report.missing.length)
    lines.push(
      `Still missing for the sign-in chain: ${report.missing.join(', ')} (add them to --config's signin: section or CLOUDGATE_* variables).`,
    );
  return lines;
}
