/**
 * The sign-in group's words about the identity service's answers (federated sign-in, projects, scope):
 * Keystone's messages, the web server module in front of it, and the fix. `answered` is the answer itself.
 */

export const IDENTITY = {
  answered: (answered: string) => `The identity service answered ${answered}.`,
  httpToTls:
    'The URL is http:// but the port speaks HTTPS: write https:// in identity_url (OS_AUTH_URL, clouds.yaml auth_url).',
  aVersion: 'a version',
  wrongVersion: (answered: string, version: string, v3: string) =>
    `Not found: ${answered}. The identity URL ends in ${version}, which this Keystone does not serve: its version document names v3 at ${v3}.`,
  setV3Url: (v3: string) =>
    `Set identity_url (OS_AUTH_URL, clouds.yaml auth_url) to ${v3} (the OpenStack client builds the same wrong path from this URL).`,
  noReadableIss: '(the token has no readable iss claim; see signin.exchange)',
  mappedNothing: (answered: string) => `The identity service mapped nothing: ${answered}.`,
  compareMapping: (idp: string, protocol: string) =>
    `The mapping of identity provider "${idp}" (protocol ${protocol}) matched none of the broker token's claims: compare its remote rules with the claims shown by signin.exchange (openstack mapping show <mapping>).`,
  protocolNotFound: (answered: string) => `Protocol not found: ${answered}.`,
  setProtocol: (idp: string) =>
    `Set protocol to the one registered for the identity provider (openstack federation protocol list --identity-provider ${idp}); the usual value is "openid".`,
  idpNotFound: (answered: string) => `Identity provider not found: ${answered}.`,
  setIdpId:
    'Set idp_id (or OS_IDENTITY_PROVIDER) to an identity provider id of the identity service (openstack identity provider list).',
  issuerNotAccepted: (answered: string) => `The token's issuer is not accepted: ${answered}.`,
  addRemoteId: (iss: string, idp: string) =>
    `Add the broker token's issuer ${iss} to the remote ids of identity provider "${idp}" (openstack identity provider set --remote-id <iss> ${idp}).`,
  noProjectAccess: (answered: string) => `No access to the project: ${answered}.`,
  grantRole: (user: string, project: string) =>
    `Give the user a role on the project (openstack role add --user ${user} --project ${project} member), or grant it through the federation mapping.`,
  unknownToken: (answered: string) => `The identity service does not recognise the token: ${answered}.`,
  shareFernetKeys:
    'The token was not issued by this identity service (or its fernet keys were rotated away); sign in again and check that every identity service node shares the same fernet keys.',
  tokenInvalid: (answered: string) => `The token is no longer valid: ${answered}.`,
  runAgain: 'The token expired or was revoked; run the chain again.',
  refusedFederated: (answered: string) => `The identity service refused the federated sign-in: ${answered}.`,
  federatedCauses: (iss: string, idp: string, protocol: string, issuer: string) =>
    `Keystone hides the reason (its log names it). Likely causes, most common first: ` +
    `(1) the broker token's issuer ${iss} is not among the remote ids of identity provider "${idp}" — the match is exact, a trailing slash counts; ` +
    `(2) identity provider "${idp}" is disabled; ` +
    `(3) less often, the mapping of protocol ${protocol} or the groups and roles it grants. ` +
    `Confirm with: openstack identity provider show ${idp} (remote_ids must list ${iss}, enabled must be True). ` +
    `Fix: openstack identity provider set --remote-id ${issuer} ${idp} (repeat --remote-id for every id to keep), or openstack identity provider set --enable ${idp}; ` +
    `else check the mapping (openstack mapping show <mapping>).`,
  signedNoOneIn: (answered: string) =>
    `The identity service accepted the broker token but signed no one in: ${answered}.`,
  mappingMatchedNothing: (idp: string, protocol: string) =>
    `The module in front of Keystone accepted the token (this 401 is Keystone's own JSON), so Keystone refused it after mapping: most often the mapping of identity provider "${idp}" (protocol ${protocol}) ` +
    `matched none of the token's claims, or its rules give the user no group. Compare the remote rules (openstack mapping show <mapping>) with the claims shown by signin.exchange; ` +
    `a mapped user, group or domain that is disabled has the same effect. Keystone's log says which.`,
  refusedToken: (answered: string) => `The identity service refused the token: ${answered}.`,
  unscopedRefused:
    'The unscoped token was not accepted: run the chain again, and check that every identity service node shares the same fernet keys.',
  notFound: (answered: string) => `Not found: ${answered}.`,
  checkUrlAndNames: 'Check identity_url (OS_AUTH_URL), federation_prefix, idp_id and protocol.',
  readLog: 'Run with --verbose to see the request and answer, and read the identity service log.',
} as const;

/** Keystone signs in with a federation protocol only when `[auth] methods` in keystone.conf names it. */
export const METHOD = {
  accepts: (methods: string[]) => ` It accepts: ${methods.join(', ') || 'none'}.`,
  notAccepted: (protocol: string, answered: string, listed: string) =>
    `The identity service does not accept protocol "${protocol}" as a sign-in method: ${answered}.${listed}`,
  worksWith: (message: string, working: string) => `${message} The same token signs in with protocol "${working}".`,
  useWorking: (working: string, protocol: string, methods: string) =>
    `Set protocol (OS_PROTOCOL, clouds.yaml auth.protocol) to ${working}: Keystone signs this token in with it. ` +
    `Only if "${protocol}" is a protocol of its own that you mean to use: add ${protocol} to [auth] methods in keystone.conf (methods = ${methods}) and restart the identity service.`,
  listedYetRefused: (protocol: string) =>
    `"${protocol}" is in [auth] methods, yet Keystone refused it: check that every identity service node runs with the same keystone.conf and was restarted after the change.`,
  addMethod: (protocol: string, methods: string, idp: string) =>
    `Add ${protocol} to [auth] methods in keystone.conf (e.g. methods = ${methods}) and restart the identity service; ` +
    `or, if "${protocol}" is not the protocol you meant, set protocol (OS_PROTOCOL) to one registered for identity provider "${idp}" (openstack federation protocol list --identity-provider ${idp}; usually "openid").`,
} as const;

/** A 401 from mod_auth_openidc: Keystone never saw the token. */
export const FRONT_MODULE = {
  refused: (answered: string) =>
    `The module in front of the identity service (mod_auth_openidc) refused the broker token: ${answered}.`,
  passAuthorization:
    'The Authorization header did not reach the web server of the identity service: a proxy or load balancer in front of it drops it; let it pass Authorization through.',
  alreadyExpired: (expiresAt: unknown) =>
    `The token sent had already expired (exp ${expiresAt}): check the clocks of the broker and this machine. `,
  realmKeySet: "the broker realm's key set",
  checkKeySet: (expired: string, keys: string) =>
    `${expired}mod_auth_openidc checks the token's signature against the broker's key set and its expiry. ` +
    `Check that its key set URL (OIDCOAuthVerifyJwksUri) is ${keys} and that the token is unexpired; ` +
    `after a broker key rotation it keeps the old key set cached for at least 300 s, so sign-in fails until that cache expires (or restart the web server).`,
} as const;
