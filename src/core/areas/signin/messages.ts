/**
 * The sign-in group's texts about applicability in one place: why the chain or a step does not run,
 * and the titles of the checks the doctor adds to the chain. The words of its results are in messages/
 * by topic: the broker's answers (broker.ts), the identity service's (identity.ts), the broker token's
 * claims (claims.ts) and each step of the chain (steps.ts). Each is named after what it says; the
 * steps and advice.ts decide which to say.
 */
export const TITLES = {
  claims: 'Broker token claims against the identity mapping',
  api: 'Cloud API call with the scoped token',
} as const;

export const CLOSED = {
  chain: {
    message: 'The sign-in chain is not configured (no clouds.yaml cloud, broker_url, identity_url or credentials).',
    text:
      'Give --cloud NAME (an entry of clouds.yaml, as openstack --os-cloud), --config FILE with a "signin:" section, or set CLOUDGATE_BROKER_URL, ' +
      'CLOUDGATE_REALM, CLOUDGATE_CLIENT_ID, CLOUDGATE_CLIENT_SECRET, CLOUDGATE_SUBJECT_TOKEN (or the CLOUDGATE_IDP_* client credentials), ' +
      'OS_AUTH_URL and OS_IDENTITY_PROVIDER.',
  },
  missing: (names: string[]) => ({
    message: `Missing setting${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`,
    text: `Set ${names.join(', ')} in the environment (CLOUDGATE_<NAME>, OS_*) or the "signin:" section of --config.`,
  }),
  noSubject: 'Set subject_token, or idp_token_url, idp_client_id and idp_client_secret to fetch one.',
  subjectGiven:
    'Not needed: the subject token is given (subject_token); idp_token_url, idp_client_id and idp_client_secret would fetch one.',
  unattended: (authType: string) =>
    `Auth type ${authType} signs in with a single-use code a person gets in a browser: it cannot be checked unattended. ${UNATTENDED}`,
  chooseProject: 'Name one with --project, OS_PROJECT_ID, OS_PROJECT_NAME or "project" in the signin: section.',
} as const;

export const UNATTENDED =
  "Check the same chain with the token it yields (auth type v3oidcaccesstoken) or with the client's credentials (v3oidcclientcredentials).";
