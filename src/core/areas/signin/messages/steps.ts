/**
 * The sign-in group's words about each step of the chain: what a step that passed got, and what an
 * answer no rule of the broker's or Keystone's explains (broker.ts, identity.ts of messages/) means.
 */

const NO_CLAIMS = 'not a JWT, no claims to show';
const KEYSTONE_V3 = 'Check identity_url: it must be the identity service (Keystone v3).';

/** The broker's and the identity provider's tokens. */
export const TOKENS = {
  idpIssued: (took: string, facts: string, expiresIn: number | undefined) =>
    `Identity provider issued an access token (${took}): ${facts}${expiresIn !== undefined ? `, expires_in ${expiresIn} s` : ''}.`,
  lifetime: (expiresIn: number) => `, expires_in ${expiresIn} s`,
  brokerIssued: (took: string, facts: string, lifetime: string) =>
    `Broker issued a token (${took}): ${facts}${lifetime}.`,
  brokerIssuedFor: (grant: string, took: string, facts: string | undefined, lifetime: string) =>
    `Broker issued a token for ${grant} (${took}): ${facts ?? NO_CLAIMS}${lifetime}.`,
  given: (facts: string | undefined) => `Broker token given (access_token): ${facts ?? NO_CLAIMS}.`,
  noAccessToken: (what: string, status: number) =>
    `${what} answered ${status} without an access_token in the JSON body.`,
  checkTokenEndpoint:
    'Check that the URL is the OAuth token endpoint of the right server (run with --verbose to see the answer).',
  theBroker: 'The broker',
  theIdentityProvider: 'The identity provider',
  subjectExpired: (left: string, expiresAt: unknown) => ` The subject token ${left} (exp ${expiresAt}).`,
  noSubject: (noSubject: string) => `No subject token and no identity provider client to fetch one. ${noSubject}`,
} as const;

/** The broker's OpenID configuration and the direct grants. */
export const DIRECT_GRANT = {
  configurationAnswered: (url: string | undefined, status: number, description: string) =>
    `The broker's OpenID configuration ${url} answered ${status}${description ? ` ${description}` : ''}.`,
  checkDiscoveryEndpoint:
    "Check discovery_endpoint: it is the broker realm's /.well-known/openid-configuration (or give token_endpoint instead).",
  noTokenEndpoint: (url: string | undefined) => `The broker's OpenID configuration ${url} names no token_endpoint.`,
  giveTokenEndpoint: 'Give token_endpoint (clouds.yaml: access_token_endpoint) instead.',
  grantNotOffered: (grant: string, offered: string[]) =>
    `The broker does not offer the ${grant} grant: its OpenID configuration lists ${offered.join(', ') || 'no grant'} (grant_types_supported).`,
  enableGrant: (grant: string, client: string) =>
    `Enable it for the broker's client (Keycloak: ${grant === 'password' ? '"Direct access grants"' : '"Service accounts roles"'} on client "${client}"), or use the auth type of a grant it offers.`,
  noMember: (status: number, member: string, has: string[]) =>
    `The broker answered ${status} without "${member}" (access_token_type) in the JSON body${has.length ? `; it holds ${has.join(', ')}` : ''}.`,
  askOpenidScope: 'Ask for scope openid (openid_scope), or set access_token_type to access_token.',
  checkBrokerTokenEndpoint:
    "Check that the URL is the broker's OAuth token endpoint (run with --verbose to see the answer).",
  givenExpired: (left: string, expiresAt: unknown) =>
    `The access token given (access_token) ${left} (exp ${expiresAt}).`,
  getNewToken:
    "Get a new one from the broker and put it where the OpenStack client reads it (secure.yaml's auth.access_token, or OS_ACCESS_TOKEN).",
} as const;

/** The identity service's tokens: unscoped, the projects, scoped. */
export const KEYSTONE = {
  noSubjectTokenHeader: (what: string, status: number) =>
    `${what} answered ${status} without the X-Subject-Token header that carries the token.`,
  passSubjectTokenHeader:
    'A proxy or load balancer in front of the identity service may drop the header; check that it passes X-Subject-Token through (and that the URL is the identity service itself).',
  notCreated: (status: number, url: string, what: string) =>
    `The identity service answered ${status} instead of 201 Created at ${url}${what.startsWith('an HTML page') ? ` (${what})` : ''}.`,
  notALoginPage:
    'Check identity_url: it must be the identity service (Keystone) itself, not a login page or proxy in front of it.',
  user: (user: string) => `user ${user}`,
  expiresAt: (at: string, left: string) => `expires_at ${at}${left}`,
  unscoped: (took: string, extra: string) =>
    `Identity service issued an unscoped token (${took})${extra ? `: ${extra}` : ''}.`,
  atUrl: (method: string, url: string, message: string) => `${method} ${url}: ${message}`,
  noProjectsList: (url: string) => `GET ${url} answered 200 without a "projects" list.`,
  checkKeystoneV3: KEYSTONE_V3,
  noProject: (url: string) => `GET ${url}: the user may access no project.`,
  grantAProject: 'Give the federated user (or its group in the mapping) a role on a project.',
  projectAmongThem: (count: number, took: string, served: string, project: string, domain: string | undefined) =>
    `${count} project(s) available (${took}${served}); ${project} is among them (domain ${domain} is checked by the scope).`,
  inDomains: (count: number, domains: string) => ` It names ${count} projects, in domains ${domains}.`,
  ambiguous: (project: string, listing: string, inDomains: string) =>
    `Project "${project}" is ambiguous among the projects this user may access: ${listing}.${inDomains}`,
  notAmong: (project: string, count: number, listing: string) =>
    `Project "${project}" is not among the ${count} project(s) this user may access: ${listing}.`,
  nameProjectDomain:
    'A project name is unique only within its domain: set project_domain (OS_PROJECT_DOMAIN_NAME or OS_PROJECT_DOMAIN_ID), or give the project by id.',
  chooseAmong: (guess: string | undefined) =>
    `${guess ? `Did you mean "${guess}"? ` : ''}Set project to one of these names or ids, or give the user a role on that project.`,
  noneChosen: (count: number, took: string, served: string, listing: string) =>
    `${count} projects available (${took}${served}), none chosen: ${listing}.`,
  chooseProject: 'No project configured: set project (--project, OS_PROJECT_ID or OS_PROJECT_NAME) to one of them.',
  chosen: (count: number, took: string, served: string, named: boolean, name: string, id: string) =>
    `${count} project(s) available (${took}${served}); ${named ? 'chose' : 'the only one,'} ${name} (${id}).`,
  scopeNotCreated: (url: string, status: number) => `POST ${url} answered ${status} instead of 201 Created.`,
  noTokenObject: (url: string) => `POST ${url} answered 201 without a "token" object in the body.`,
} as const;

/** Why the scope was refused, as far as what the user may read proves it. */
export const SCOPE_PROOF = {
  nameProjectDomain:
    'A project name is unique only within its domain: set project_domain (clouds.yaml project_domain_name or project_domain_id, OS_PROJECT_DOMAIN_NAME), or name the project by id.',
  idNotAmong: (message: string, id: string, count: number, listing: string) =>
    `${message} Project id ${id} is not among the ${count} project(s) this user may access: ${listing}.`,
  chooseId: 'Set project to one of these ids or names, or give the user a role on that project.',
  noNamed: (message: string, name: string, listing: string) =>
    `${message} The user may access no project named "${name}": ${listing}.`,
  chooseNamed: (guess: string | undefined, name: string) =>
    `${guess ? `Did you mean "${guess}"? ` : ''}Set project to one of these, or give the user a role on ${name}.`,
  domainId: (id: string) => `domain id ${id}`,
  domainName: (name: string) => `domain "${name}"`,
  inOtherDomain: (message: string, project: string, domain: string, id: string, configured: string) =>
    `${message} Project "${project}" is in domain "${domain}" (id ${id}), not ${configured}: a scope there passes.`,
  setProjectDomain: (domain: string, id: string) =>
    `Set project_domain to ${domain} (clouds.yaml: project_domain_name: ${domain}, or project_domain_id: ${id}).`,
} as const;

/** The cloud API called with the scoped token. */
export const API = {
  noService: (service: string, where: string, types: string) =>
    `The catalog has no "${service}" service with an endpoint${where ? ` (${where})` : ''} (services: ${types}).`,
  setRegionAndInterface:
    'Set region and interface (region_name and interface in clouds.yaml) to ones the catalog has, or register the endpoint.',
  setApiService: 'Set api_service to a service type of the catalog, or register the service endpoint.',
  answered: (url: string, status: number, description: string) =>
    `GET ${url} answered ${status}${description ? `: ${description}` : ''}.`,
  tokenNotValidated: (service: string) =>
    `The ${service} service refused the scoped token: it must validate tokens against the same identity service (check its keystone_authtoken settings).`,
  roleForbids: 'The token is valid but the role on the project does not allow this call; check the role assignment.',
  checkService: (service: string) => `Check the ${service} service and its catalog URL.`,
  works: (url: string, took: string, count: string) => `GET ${url} answered ${took}${count}: the scoped token works.`,
} as const;

/** The admin sign-in that reads the identity mapping. */
export const ADMIN = {
  checkCredentials: (who: string, applicationCredential: boolean) =>
    `Check the admin credentials of ${who}: ${applicationCredential ? 'OS_APPLICATION_CREDENTIAL_ID and OS_APPLICATION_CREDENTIAL_SECRET (expired or deleted credentials are refused too)' : 'OS_USERNAME, OS_PASSWORD, OS_USER_DOMAIN_NAME and the scope (OS_PROJECT_NAME/OS_PROJECT_DOMAIN_NAME or OS_SYSTEM_SCOPE=all)'}.`,
  passSubjectTokenHeader:
    'A proxy in front of the identity service may drop the X-Subject-Token header; let it through.',
  checkUrlAndCredentials: 'Check identity_url (OS_AUTH_URL) and the admin credentials.',
  mayNotRead: (what: string) =>
    `The admin credentials may not read ${what}: give them a role that may (admin, or reader with OS_SYSTEM_SCOPE=all on Keystone's newer policies).`,
  checkFederationNames:
    'Check idp_id (OS_IDENTITY_PROVIDER), protocol (OS_PROTOCOL) and federation_prefix: openstack federation protocol list --identity-provider <idp>.',
  readLog: 'Run with --verbose to see the request and answer, and read the identity service log.',
  signInFailed: (who: string, url: string, answered: string) =>
    `The admin sign-in as ${who} at ${url} failed: ${answered}.`,
  answered: (url: string, answered: string) => `GET ${url} answered ${answered}.`,
  noMappingId: (url: string) => `GET ${url} answered without protocol.mapping_id.`,
  checkKeystoneV3: KEYSTONE_V3,
} as const;
