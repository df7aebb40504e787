import { setting, settingOrigin, type SettingOrigin, type SettingsSource } from '../../config/settings.js';

/** The sign-in chain's settings, resolved from flags, environment and the `signin:` section. */
export interface SigninSettings {
  brokerUrl?: string;
  realm?: string;
  clientId?: string;
  clientSecret?: string;
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
  /** The project's domain (id or name): picks among projects of the same name. */
  projectDomain?: string;
  /** The region and interface of the catalog endpoint the last step calls (as the OpenStack client's). */
  region?: string;
  interface?: string;
  /** `project` is surely an id (OS_PROJECT_ID, or 32 hex digits): scoping can go ahead without the list. */
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

const SECTION = 'signin';

type SettingOptions = NonNullable<Parameters<typeof setting>[3]>;

/** The chain's settings as the `signin:` section names them, with their secrecy and other environment names. */
const CHAIN_SETTINGS = {
  broker_url: {},
  realm: {},
  client_id: { envNames: ['OS_CLIENT_ID'] },
  client_secret: { secret: true, envNames: ['OS_CLIENT_SECRET'] },
  subject_token: { secret: true },
  idp_token_url: {},
  idp_client_id: {},
  idp_client_secret: { secret: true },
  idp_scope: {},
  subject_issuer: {},
  identity_url: { envNames: ['OS_AUTH_URL'] },
  federation_prefix: {},
  idp_id: { envNames: ['OS_IDENTITY_PROVIDER'] },
  protocol: { envNames: ['OS_PROTOCOL'] },
  project: { envNames: ['OS_PROJECT_ID', 'OS_PROJECT_NAME'] },
  project_domain: {},
  region: { envNames: ['OS_REGION_NAME'] },
  interface: { envNames: ['OS_INTERFACE'] },
} satisfies Record<string, SettingOptions>;

type ChainSetting = keyof typeof CHAIN_SETTINGS;

export function readSigninSettings(input: SettingsSource): SigninSettings {
  const get = (name: string, options: SettingOptions = {}) => setting(input, SECTION, name, options);
  const chain = (name: ChainSetting) => setting(input, SECTION, name, CHAIN_SETTINGS[name]);
  const secret = (name: string, envNames: string[] = []) => get(name, { secret: true, envNames });
  const project = chain('project');
  return {
    brokerUrl: trimSlash(chain('broker_url')),
    realm: chain('realm'),
    clientId: chain('client_id'),
    clientSecret: chain('client_secret'),
    subjectToken: chain('subject_token'),
    idpTokenUrl: chain('idp_token_url'),
    idpClientId: chain('idp_client_id'),
    idpClientSecret: chain('idp_client_secret'),
    idpScope: chain('idp_scope'),
    subjectIssuer: chain('subject_issuer'),
    identityUrl: identityBase(chain('identity_url')),
    federationPrefix: chain('federation_prefix') ?? 'OS',
    idpId: chain('idp_id'),
    protocol: chain('protocol') ?? 'openid',
    project,
    projectDomain: chain('project_domain'),
    region: chain('region'),
    interface: chain('interface'),
    projectIsId: project !== undefined && (project === input.env.OS_PROJECT_ID || project === input.cloud?.projectId || /^[0-9a-f]{32}$/i.test(project)),
    apiService: get('api_service') ?? 'compute',
    claimPrefix: claimPrefix(get('claim_prefix')),
    admin: {
      username: get('admin_username', { envNames: ['OS_USERNAME'] }),
      password: secret('admin_password', ['OS_PASSWORD']),
      userDomainName: get('admin_user_domain_name', { envNames: ['OS_USER_DOMAIN_NAME'] }),
      projectName: get('admin_project_name', { envNames: ['OS_PROJECT_NAME'] }),
      projectDomainName: get('admin_project_domain_name', { envNames: ['OS_PROJECT_DOMAIN_NAME'] }),
      systemScope: get('admin_system_scope', { envNames: ['OS_SYSTEM_SCOPE'] }),
      applicationCredentialId: get('admin_application_credential_id', { envNames: ['OS_APPLICATION_CREDENTIAL_ID'] }),
      applicationCredentialSecret: secret('admin_application_credential_secret', ['OS_APPLICATION_CREDENTIAL_SECRET']),
    },
  };
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
  return Boolean(s.brokerUrl || s.identityUrl || s.subjectToken || usesIdpCredentials(s) || s.clientId);
}

/** Names of the settings a step needs but lacks, as the operator writes them. */
export function missing(s: SigninSettings, keys: (keyof SigninSettings)[]): string[] {
  return keys.filter((k) => !s[k]).map((k) => NAMES[k]);
}

const NAMES: Record<keyof SigninSettings, string> = {
  brokerUrl: 'broker_url',
  realm: 'realm',
  clientId: 'client_id',
  clientSecret: 'client_secret',
  subjectToken: 'subject_token',
  idpTokenUrl: 'idp_token_url',
  idpClientId: 'idp_client_id',
  idpClientSecret: 'idp_client_secret',
  idpScope: 'idp_scope',
  subjectIssuer: 'subject_issuer',
  identityUrl: 'identity_url (or OS_AUTH_URL)',
  federationPrefix: 'federation_prefix',
  idpId: 'idp_id (or OS_IDENTITY_PROVIDER)',
  protocol: 'protocol',
  project: 'project (or --project / OS_PROJECT_ID / OS_PROJECT_NAME)',
  projectDomain: 'project_domain',
  region: 'region (or OS_REGION_NAME)',
  interface: 'interface (or OS_INTERFACE)',
  projectIsId: 'project',
  apiService: 'api_service',
  claimPrefix: 'claim_prefix',
  admin: 'admin credentials (OS_USERNAME/OS_PASSWORD or OS_APPLICATION_CREDENTIAL_ID/OS_APPLICATION_CREDENTIAL_SECRET)',
};

/** Where each of the chain's settings was found (never a value), and which the chain still lacks. */
export interface SettingsReport {
  found: { name: string; origin: SettingOrigin }[];
  missing: string[];
}

export function signinSettingsReport(input: SettingsSource): SettingsReport {
  // Object.keys types the keys as string; these are the literal's own.
  const found = (Object.keys(CHAIN_SETTINGS) as ChainSetting[]).flatMap((name) => {
    const origin = settingOrigin(input, SECTION, name, CHAIN_SETTINGS[name]);
    return origin ? [{ name, origin }] : [];
  });
  const has = (name: string) => found.some((f) => f.name === name);
  const subject = has('subject_token') || (has('idp_token_url') && has('idp_client_id') && has('idp_client_secret'));
  const needed = ['broker_url', 'realm', 'client_id', 'client_secret', 'identity_url', 'idp_id'].filter((n) => !has(n));
  return { found, missing: [...needed, ...(subject ? [] : ['subject_token (or idp_token_url, idp_client_id, idp_client_secret)'])] };
}

/** The lines `doctor` and `token` print on stderr when a clouds.yaml entry is used. */
export function cloudSettingsLines(input: SettingsSource): string[] {
  if (!input.cloud) return [];
  const report = signinSettingsReport(input);
  const by = (origin: SettingOrigin) => report.found.filter((f) => f.origin === origin).map((f) => f.name);
  const lines = [`Sign-in settings from clouds.yaml cloud "${input.cloud.name}" (${input.cloud.file}): ${by('clouds.yaml').join(', ') || 'none'}.`];
  for (const origin of ['flag', 'environment', 'config file'] as const) if (by(origin).length) lines.push(`From the ${origin}: ${by(origin).join(', ')}.`);
  if (input.cloud.caFile) lines.push(`CA file from clouds.yaml (cacert): ${input.cloud.caFile}.`);
  if (input.cloud.insecure) lines.push('clouds.yaml says verify: false: TLS certificates are NOT verified.');
  if (report.missing.length) lines.push(`Still missing for the sign-in chain: ${report.missing.join(', ')} (add them to --config's signin: section or CLOUDGATE_* variables).`);
  return lines;
}
