/**
 * The sign-in group's words about the broker's answers (the exchange, a direct grant) and the identity
 * provider's client credentials grant: what the answer proves, and the fix. `where` names who answered
 * ("The broker (realm r)", "The identity provider"), `answered` the answer itself (status, code, words).
 */

export const BROKER = {
  broker: (realm: string | undefined) => `The broker${realm ? ` (realm ${realm})` : ''}`,
  identityProvider: 'The identity provider',
  brokerSecret: 'client_secret (CLOUDGATE_CLIENT_SECRET, OS_CLIENT_SECRET or signin.client_secret_file)',
  idpSecret: 'idp_client_secret (CLOUDGATE_IDP_CLIENT_SECRET or signin.idp_client_secret_file)',
  answered: (where: string, answered: string) => `${where} answered ${answered}.`,
  httpToTls: (urlKey: string) => `The URL is http:// but the port speaks HTTPS: write https:// in ${urlKey}.`,
  rejectedClient: (where: string, answered: string) => `${where} rejected the client: ${answered}.`,
  inRealm: (realm: string) => ` in realm ${realm}`,
  wrongSecret: (client: string, inRealm: string, secretKey: string) =>
    `Wrong client secret: client "${client}" exists${inRealm} and its secret differs. Check ${secretKey} against the client's credentials.`,
  noClient: (client: string, inRealm: string, clientKey: string) =>
    `No enabled client "${client}"${inRealm}: check ${clientKey} (a typo, or a disabled client).`,
  setClientId: (clientKey: string) => `Set ${clientKey}.`,
  noServiceAccount: (client: string) =>
    `Client "${client}" may not use the client credentials grant: turn on its service account (Keycloak: "Client authentication" and "Service accounts roles" on the client).`,
  noDirectGrant: (client: string) =>
    `Client "${client}" may not use the password grant: turn on "Direct access grants" for it in the broker.`,
  wrongClientAtBroker: (client: string, secretKey: string, inRealm: string) =>
    `Wrong client id or client secret. Check client_id "${client}" and ${secretKey} against the client's credentials${inRealm}; the client must be confidential.`,
  wrongClientAtIdp: (client: string, secretKey: string) =>
    `Wrong client id or client secret at the identity provider. Check idp_client_id "${client}" and ${secretKey}.`,
  refusedUser: (where: string, answered: string) => `${where} refused the user: ${answered}.`,
  wrongPassword: (username: string) =>
    `Wrong username or password: check username "${username}" and password (OS_PASSWORD, or auth.password in clouds.yaml or secure.yaml).`,
  refusedExchange: (where: string, answered: string) => `${where} refused the exchange: ${answered}.`,
  addAudience: (client: string) =>
    `The subject token's audience must include the exchanging client "${client}" (or the token must have been issued to it): add an Audience mapper with included client audience "${client}" to the client that obtains the subject token.`,
  exchangeDisabled: (where: string, answered: string) =>
    `${where} does not let this client exchange tokens: ${answered}.`,
  enableStandardExchange: (client: string) =>
    `Turn on "Standard token exchange" for client "${client}" in the broker (Keycloak 26: the client's Capability config).`,
  exchangeNotPermitted: (where: string, answered: string) =>
    `${where} does not permit this client to exchange tokens: ${answered}.`,
  permitExchange: (client: string, subjectIssuer: string | undefined) =>
    `Exchange not permitted: allow client "${client}" to exchange tokens (Keycloak: enable token exchange for the client and grant it the token-exchange permission on the identity provider${subjectIssuer ? ` "${subjectIssuer}"` : ''}).`,
  refusesSubjectIssuer: (where: string, answered: string) => `${where} refuses subject_issuer: ${answered}.`,
  removeSubjectIssuer:
    'subject_issuer refused: this broker runs standard token exchange (Keycloak 26 "V2"), which only accepts tokens it issued itself. Remove subject_issuer, or enable legacy token exchange (V1) on the broker to exchange tokens of an external identity provider.',
  unknownSubjectIssuer: (where: string, subjectIssuer: string, answered: string) =>
    `${where} does not know subject_issuer "${subjectIssuer}": ${answered}.`,
  setSubjectIssuerAlias:
    'Set subject_issuer to the alias of the identity provider as it is registered in the broker realm (Identity providers list), or remove it.',
  rejectedSubjectToken: (where: string, answered: string) => `${where} rejected the subject token: ${answered}.`,
  checkSubjectToken: (subjectIssuer: string, realm: string) =>
    `Subject token rejected: check that it was issued by the identity provider "${subjectIssuer}" of realm ${realm} and has not expired.`,
  setSubjectIssuer:
    'Subject token rejected: for a token of an external identity provider the broker (legacy exchange) needs subject_issuer=<identity provider alias>; set subject_issuer. Also check that the token has not expired.',
  tokenExchange: 'token exchange',
  passwordGrant: 'the password grant',
  clientCredentialsGrant: 'the client credentials grant',
  itsTokenEndpoint: 'its token endpoint',
  grantNotOffered: (where: string, grant: string, url: string, answered: string) =>
    `${where} does not offer ${grant} at ${url}: ${answered}.`,
  enableGrant: (grant: string, forWhom: string, urlKey: string) =>
    `Enable ${grant} in the broker${forWhom}, or check that ${urlKey} is the broker's token endpoint.`,
  tokenExchangeFeature: ' (Keycloak: the token-exchange feature)',
  forClient: (client: string) => ` for client "${client}"`,
  refusedScope: (where: string, answered: string) => `${where} refused the scope: ${answered}.`,
  checkIdpScope: (scope: string) => `Check idp_scope "${scope}": it must be a scope the client may request.`,
  checkOpenidScope: (scope: string) => `Check openid_scope "${scope}": every scope must be one the client may request.`,
  checkIdpTokenUrl: 'Check idp_token_url: it must be the OAuth token endpoint of the identity provider.',
  readAnswer: 'Read the answer above and the server logs; run with --verbose to see the request.',
} as const;

/** A 404 of the broker, by what it said. */
export const BROKER_NOT_FOUND = {
  notFound: (answered: string) => `Not found: ${answered}.`,
  noRealm: (realm: string) => `The broker has no realm "${realm}": check realm (the realm's name is case-sensitive).`,
  removeAuthPrefix: (urlKey: string, fixed: string) =>
    `Keycloak 17 and later serve realms at /realms/..., without the /auth prefix of older versions: remove /auth from ${urlKey} (${fixed}).`,
  nothingAtPath: (url: string, urlKey: string, andRealm: boolean) =>
    `The broker answers but serves nothing at ${url || 'that path'}: check ${urlKey}${andRealm ? ' and realm' : ''}; the token endpoint is {broker_url}/realms/<realm>/protocol/openid-connect/token.`,
  legacyAuthPrefix:
    ' A Keycloak of version 16 or older (or one started with --http-relative-path=/auth) serves realms under /auth: try broker_url ending in /auth.',
  checkUrlAndRealm: (urlKey: string, realm: string | undefined, legacy: string) =>
    `Check ${urlKey}${realm === undefined ? '' : ` and realm ("${realm}")`}: the token endpoint is {broker_url}/realms/<realm>/protocol/openid-connect/token.${legacy}`,
} as const;
