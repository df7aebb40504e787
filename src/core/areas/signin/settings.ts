import { setting, type SettingsSource } from '../../config/settings.js';

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

export function readSigninSettings(input: SettingsSource): SigninSettings {
  const get = (name: string, options: Parameters<typeof setting>[3] = {}) => setting(input, SECTION, name, options);
  const secret = (name: string, envNames: string[] = []) => get(name, { secret: true, envNames });
  const project = get('project', { envNames: ['OS_PROJECT_ID', 'OS_PROJECT_NAME'] });
  return {
    brokerUrl: trimSlash(get('broker_url')),
    realm: get('realm'),
    clientId: get('client_id', { envNames: ['OS_CLIENT_ID'] }),
    clientSecret: secret('client_secret', ['OS_CLIENT_SECRET']),
    subjectToken: secret('subject_token'),
    idpTokenUrl: get('idp_token_url'),
    idpClientId: get('idp_client_id'),
    idpClientSecret: secret('idp_client_secret'),
    idpScope: get('idp_scope'),
    subjectIssuer: get('subject_issuer'),
    identityUrl: identityBase(get('identity_url', { envNames: ['OS_AUTH_URL'] })),
    federationPrefix: get('federation_prefix') ?? 'OS',
    idpId: get('idp_id', { envNames: ['OS_IDENTITY_PROVIDER'] }),
    protocol: get('protocol', { envNames: ['OS_PROTOCOL'] }) ?? 'openid',
    project,
    projectIsId: project !== undefined && (project === input.env.OS_PROJECT_ID || /^[0-9a-f]{32}$/i.test(project)),
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
  projectIsId: 'project',
  apiService: 'api_service',
  claimPrefix: 'claim_prefix',
  admin: 'admin credentials (OS_USERNAME/OS_PASSWORD or OS_APPLICATION_CREDENTIAL_ID/OS_APPLICATION_CREDENTIAL_SECRET)',
};
