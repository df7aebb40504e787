/** Group signin: the sign-in chain's settings (section `signin:`), as the OpenStack client names them where it has a name. */
import { inSection } from '../setting-schema.js';

const SECTION = 'signin';

/** The OpenID Connect auth types of the OpenStack client, each a chain of its own. */
export const AUTH_TYPES = ['v3oidcclientcredentials', 'v3oidcpassword', 'v3oidcaccesstoken', 'v3oidcauthcode'] as const;

export const SIGNIN_SETTINGS = inSection(SECTION, [
  { name: 'auth_type', type: 'choice', choices: AUTH_TYPES, env: ['OS_AUTH_TYPE'], clouds: true,
    doc: "how the broker token is obtained, as the OpenStack client's auth type; unset: token exchange of a subject token" },
  { name: 'broker_url', type: 'url', doc: "the broker's base URL (Keycloak: without /realms/...)" },
  { name: 'realm', type: 'text', doc: "the broker's realm" },
  { name: 'token_endpoint', type: 'url', env: ['OS_ACCESS_TOKEN_ENDPOINT'], clouds: true,
    doc: "the broker's token endpoint (clouds.yaml: access_token_endpoint); default {broker_url}/realms/{realm}/protocol/openid-connect/token" },
  { name: 'discovery_endpoint', type: 'url', env: ['OS_DISCOVERY_ENDPOINT'], clouds: true,
    doc: "the broker's OpenID configuration, read for its token endpoint when token_endpoint is not given" },
  { name: 'client_id', type: 'text', env: ['OS_CLIENT_ID'], clouds: true, doc: "the broker client that asks for the broker token" },
  { name: 'client_secret', type: 'secret', env: ['OS_CLIENT_SECRET'], clouds: true, doc: "that client's secret" },
  { name: 'openid_scope', type: 'text', env: ['OS_OPENID_SCOPE'], clouds: true, default: 'openid profile',
    doc: 'the scope asked for by the client credentials and password grants' },
  { name: 'access_token_type', type: 'choice', choices: ['access_token', 'id_token'], env: ['OS_ACCESS_TOKEN_TYPE'], clouds: true, default: 'access_token',
    doc: "which token of the broker's answer is presented to the identity service" },
  { name: 'username', type: 'text', env: ['OS_USERNAME'], clouds: true, doc: 'auth type v3oidcpassword: the broker user (OS_USERNAME only with that auth type)' },
  { name: 'password', type: 'secret', env: ['OS_PASSWORD'], clouds: true, doc: "auth type v3oidcpassword: that user's password (OS_PASSWORD only with that auth type)" },
  { name: 'access_token', type: 'secret', env: ['OS_ACCESS_TOKEN'], clouds: true, doc: 'auth type v3oidcaccesstoken: the broker token itself' },
  { name: 'subject_token', type: 'secret', doc: 'token exchange: the identity provider token to exchange' },
  { name: 'idp_token_url', type: 'url', doc: "token exchange: the identity provider's token endpoint, to get the subject token by client credentials" },
  { name: 'idp_client_id', type: 'text', doc: 'token exchange: the identity provider client' },
  { name: 'idp_client_secret', type: 'secret', doc: "token exchange: that client's secret" },
  { name: 'idp_scope', type: 'text', doc: 'token exchange: the scope asked of the identity provider' },
  { name: 'subject_issuer', type: 'text', doc: "token exchange: the identity provider's alias in the broker realm (legacy exchange)" },
  { name: 'identity_url', type: 'url', env: ['OS_AUTH_URL'], clouds: true, doc: 'the identity service (Keystone), with or without /v3 (clouds.yaml: auth_url)' },
  { name: 'federation_prefix', type: 'text', default: 'OS', doc: 'the prefix of the federation API ({prefix}-FEDERATION)' },
  { name: 'idp_id', type: 'text', env: ['OS_IDENTITY_PROVIDER'], clouds: true, doc: "the identity provider's id in Keystone (clouds.yaml: identity_provider)" },
  { name: 'protocol', type: 'text', env: ['OS_PROTOCOL'], clouds: true, default: 'openid', doc: 'the federation protocol' },
  { name: 'project', type: 'text', flag: 'project', env: ['OS_PROJECT_ID', 'OS_PROJECT_NAME'], clouds: true,
    doc: 'the project to scope to, by id or name (clouds.yaml: project_id or project_name)' },
  { name: 'project_domain', type: 'text', env: ['OS_PROJECT_DOMAIN_ID', 'OS_PROJECT_DOMAIN_NAME'], clouds: true,
    doc: "the project's domain, by id or name (clouds.yaml: project_domain_id or project_domain_name)" },
  { name: 'region', type: 'text', env: ['OS_REGION_NAME'], clouds: true, doc: "the catalog region of signin.api's endpoint (clouds.yaml: region_name)" },
  { name: 'interface', type: 'text', env: ['OS_INTERFACE'], clouds: true, doc: "the catalog interface of signin.api's endpoint (public, internal, admin)" },
  { name: 'api_service', type: 'text', default: 'compute', doc: 'the catalog service type signin.api calls' },
  { name: 'claim_prefix', type: 'text', doc: "mod_auth_openidc's OIDCClaimPrefix, for signin.claims (default: both OIDC_CLAIM_ and OIDC-)" },
  { name: 'admin_username', type: 'text', env: ['OS_USERNAME'], doc: 'signin.claims: an identity admin who may read the mapping' },
  { name: 'admin_password', type: 'secret', env: ['OS_PASSWORD'], doc: "signin.claims: that admin's password" },
  { name: 'admin_user_domain_name', type: 'text', env: ['OS_USER_DOMAIN_NAME'], doc: "signin.claims: that admin's domain" },
  { name: 'admin_project_name', type: 'text', env: ['OS_PROJECT_NAME'], doc: "signin.claims: that admin's project" },
  { name: 'admin_project_domain_name', type: 'text', env: ['OS_PROJECT_DOMAIN_NAME'], doc: "signin.claims: that project's domain" },
  { name: 'admin_system_scope', type: 'text', env: ['OS_SYSTEM_SCOPE'], doc: 'signin.claims: a system scope (all) instead of a project' },
  { name: 'admin_application_credential_id', type: 'text', env: ['OS_APPLICATION_CREDENTIAL_ID'], doc: 'signin.claims: an application credential instead of a password' },
  { name: 'admin_application_credential_secret', type: 'secret', env: ['OS_APPLICATION_CREDENTIAL_SECRET'], doc: "signin.claims: that credential's secret" },
]);
