/**
 * The sign-in group's words about the broker token's claims (signin.claims): the identity mapping's rules
 * against them, the claims mappings usually read, the Authorization header's size, and the subject
 * token's audience before the exchange.
 */

export const MAPPING = {
  noRules: (id: string, idp: string, protocol: string) =>
    `Mapping ${id} of identity provider "${idp}" (protocol ${protocol}) has no rules: Keystone maps no one ("Could not map any federated user properties").`,
  giveRules: (id: string) => `Give the mapping rules (openstack mapping set --rules <file> ${id}).`,
  noPrefixedType: (id: string, prefix: string, types: string) =>
    `None of the remote types of mapping ${id} reads a claim with prefix ${prefix} (types: ${types}); the claims were not checked.`,
  setClaimPrefix:
    'Set claim_prefix to the OIDCClaimPrefix of mod_auth_openidc in front of the identity service (types read "<prefix><claim>", or "HTTP_<PREFIX><CLAIM>" as request headers).',
  assumedPresent: (types: string) => `; assumed present, not claims: ${types}`,
  rule: (rule: number) => `rule ${rule}`,
  rules: (rules: string) => `rules ${rules}`,
  matches: (id: string, rules: string, count: number, single: boolean, claims: string, assumed: string) =>
    `Mapping ${id}: ${rules} of ${count} match${single ? 'es' : ''} the broker token (claims ${claims}${assumed}).`,
  addClaims: (claims: string, client: string, id: string) =>
    `Put ${claims} into the broker's tokens for client "${client}" (Keycloak: a protocol mapper on the client or one of its client scopes, with "Add to access token" on), or change the mapping's remote types (openstack mapping show ${id}).`,
  checkValues: (claims: string, id: string) =>
    `Check the values of ${claims} in the broker's tokens against the rules' any_one_of / not_any_of (openstack mapping show ${id}), or change the rules.`,
  noRuleMatches: (id: string, missingCount: number, missing: string, why: string) =>
    `No rule of mapping ${id} can match the broker token, so Keystone will answer "Could not map any federated user properties to identity values"${missingCount ? `; missing claim${missingCount > 1 ? 's' : ''}: ${missing}` : ''} (${why}).`,
} as const;

export const COMMON_CLAIMS_TEXT = {
  notRead: (why: string) => `the mapping was not read (${why})`,
  lacks: (absent: string[], note: string) => `The broker token lacks ${absent.join(', ')}; ${note}.`,
  addUserClaims:
    'mod_auth_openidc names the user by "sub", and mappings usually read preferred_username or email: add them to the broker\'s tokens (Keycloak: protocol mappers of the client), or give read-only admin credentials (OS_USERNAME/OS_PASSWORD or OS_APPLICATION_CREDENTIAL_*) to check against the real mapping.',
  carries: (present: string[], absent: string[], note: string) =>
    `The broker token carries ${present.join(', ')}${absent.length ? ` (not ${absent.join(', ')})` : ''}; ${note}: a mapping that reads other claims is not checked.`,
  adminIncomplete: (lacking: string[]) => `admin credentials incomplete, missing ${lacking.join(', ')}`,
  setToReadMapping: (lacking: string[]) => `Set ${lacking.join(' and ')} to read the mapping.`,
  readingFailed: (why: string) => `reading it failed: ${why}`,
  notJwt: 'The broker token is not a JWT: its claims cannot be read.',
  issueJwt:
    'The identity service reads the claims of a JWT; check that the broker issues JWT access tokens for this client.',
} as const;

export const HEADER_SIZE = {
  tooLarge: (bytes: number, limit: number, names: string) =>
    `The Authorization header carrying the broker token is ${bytes} bytes, over ${limit} (8 KiB): ingress proxies in front of the identity service refuse it with 400 ("Request Header Or Cookie Too Large")${names ? `; largest claims: ${names}` : ''}.`,
  makeSmaller:
    'Make the broker token smaller: drop claims the identity service does not need (Keycloak: turn off "Full scope allowed" of client, remove group or role mappers from its client scopes), or raise the proxy\'s limit (ingress-nginx: large-client-header-buffers "4 16k").',
} as const;

export const SUBJECT_AUDIENCE = {
  had: (aud: string, azp: string | undefined) => `aud ${aud}${azp ? `, azp ${azp}` : ''}`,
  excludesClient: (had: string, client: string) =>
    `The subject token's audience (${had}) does not include the exchanging client "${client}": Keycloak's standard token exchange (V2) refuses it ("Client is not within the token audience").`,
  addClient: (client: string, azp: string | undefined) =>
    `Add "${client}" to the subject token's audience (Keycloak: an Audience mapper with included client audience "${client}" on the client${azp ? ` "${azp}"` : ''} that obtains it).`,
} as const;
