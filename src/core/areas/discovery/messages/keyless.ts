/**
 * The discovery group's words about keyless route53 (discovery.sts): the role ARN, the token service's
 * answer to AssumeRoleWithWebIdentity, and the DNS read made with the credentials it issued.
 */

export const ROLE = {
  unset:
    'route53 auth kubernetes is selected but cluster_issuer_acme_route53_role_arn is not set: there is no role to assume.',
  setRoleArn:
    'Set cluster_issuer_acme_route53_role_arn to the ARN of the role whose trust policy admits the service account.',
  notArn: (arn: string) => `cluster_issuer_acme_route53_role_arn "${arn}" is not a role ARN.`,
  arnForm: 'Use the form arn:aws:iam::123456789012:role/NAME.',
  notJwt: (from: string) => `The token from ${from} is not a JWT.`,
  giveProjectedToken: 'Give a projected service-account token (kubectl create token ...).',
  tokenServiceUnreachable: 'The token service could not be asked',
  dnsApiUnreachable: (role: string) => `The role ${role} was assumed, but the DNS API could not be asked`,
  unreachable: (what: string, error: string) => `${what}: ${error}`,
  noCredentials: (endpoint: string) => `${endpoint} answered 200 without temporary credentials.`,
  checkStsEndpoint: 'Check that CLOUDGATE_STS_ENDPOINT (if set) points at the token service itself.',
  theServiceAccount: 'the service account',
  assumed: (role: string, subject: string, from: string, action: string, found: string | undefined) =>
    `Assumed ${role} as ${subject} with the token from ${from}, and ${action} answered (${found}).`,
  putRolePolicy: (role: string) =>
    `aws iam put-role-policy --role-name ${role} --policy-name cert-manager-dns01 --policy-document file://oidc/permissions-policy.json ("cloudgate oidc --out oidc" writes it).`,
} as const;

/** What the token service's refusal says, in the AWS error's words ("said"). */
export const STS_REFUSAL = {
  said: (code: string, message: string) => `${code} ("${message}")`,
  noErrorDocument: (status: number | undefined) => `status ${status} without an error document`,
  answered: (said: string) => `The token service answered ${said}.`,
  checkEndpointAndProxy: 'Check CLOUDGATE_STS_ENDPOINT (if set) and any proxy in between.',
  noProvider: (said: string, account: string, iss: string) =>
    `The token service refused the token: ${said}. No OIDC provider is registered in account ${account} for the token's issuer ${iss}.`,
  registerIssuer: (iss: string, audience: string) =>
    `Register the issuer exactly as the token carries it (URL ${iss}, client id ${audience}, the thumbprint of its TLS chain): ` +
    `aws iam create-open-id-connect-provider --cli-input-json file://oidc/oidc-provider.json ("cloudgate oidc" writes it). ` +
    `If ${iss} is not your public issuer URL, fix --service-account-issuer on the API servers first (discovery.apiserver-flags).`,
  wrongAudience: (said: string, aud: string[], iss: string) =>
    `The token service refused the token: ${said}. Its aud [${aud.join(', ')}] is not among the client ids of the provider for ${iss}.`,
  addClientId: (audience: string, provider: string) =>
    `Add ${audience} to the provider's client ids: aws iam add-client-id-to-open-id-connect-provider --open-id-connect-provider-arn ${provider} --client-id ${audience}; cert-manager requests tokens for that audience.`,
  notAdmitted: (role: string, said: string, sub: string, aud: string[], provider: string) =>
    `The token service refused to let the token assume ${role}: ${said}. The role's trust policy does not admit sub "${sub}" with aud [${aud.join(', ')}] from ${provider}.`,
  compareTrustPolicy: (role: string, provider: string, hostPath: string, sub: string, audience: string) =>
    `Compare the trust policy of ${role} (aws iam get-role --role-name ${role}) with the token: Principal.Federated ${provider}, ` +
    `Action sts:AssumeRoleWithWebIdentity, Condition StringEquals "${hostPath}:sub": "${sub}" and "${hostPath}:aud": "${audience}" ` +
    `("cloudgate oidc --role-name ${role}" writes trust-policy.json).`,
  expired: (said: string) => `The token service says the token has expired: ${said}.`,
  giveFreshToken:
    "Give a fresh token (without --token-file a new one is requested each run); if a fresh token is refused too, the control plane's clock is wrong: check its time synchronisation.",
  cannotFetchIssuer: (iss: string, said: string) =>
    `The token service could not fetch the discovery document or key set of ${iss}: ${said}.`,
  publishToInternet: (iss: string) =>
    `${iss}/.well-known/openid-configuration and its jwks_uri must be served anonymously over HTTPS from the internet (see discovery.document and discovery.jwks); a firewall, an IP allow-list or a private certificate without its thumbprint registered stops the token service. Transient outages clear on retry.`,
  refusedToken: (said: string) => `The token service refused the token: ${said}.`,
  checkRegistration:
    'Check the provider registration (thumbprint, client ids) and that the published key set holds the key the cluster signs with (discovery.token).',
  refusedRequest: (said: string) => `The token service refused the request: ${said}.`,
  checkRoleAndRegion: 'Check the role ARN (cluster_issuer_acme_route53_role_arn) and the region.',
} as const;

/** What the DNS API said to the assumed role's read. */
export const DNS_READ = {
  zone: (id: string) => `hosted zone ${id}`,
  noZone: 'no hosted zone',
  said: (code: string, message: string | undefined) => `${code}${message ? ` ("${message}")` : ''}`,
  lacksPermissions: (role: string, action: string, said: string) =>
    `The role ${role} was assumed, but the DNS API refused ${action}: ${said}. The role lacks DNS permissions.`,
  grantActions: (actions: string, policyHint: string) =>
    `Give the role ${actions} (GetChange on change/*, the record-set actions on hostedzone/*, ListHostedZonesByName on *): ${policyHint}`,
  noSuchZone: (zone: string | undefined, said: string) => `The DNS API knows no hosted zone ${zone}: ${said}.`,
  setZoneId:
    'Set cluster_issuer_acme_route53_hosted_zone_id to the id of the public zone of your domain (aws route53 list-hosted-zones-by-name --dns-name <domain>), in the account of the role.',
  invalidZoneId: (zone: string | undefined, said: string) => `The DNS API refused the hosted zone id ${zone}: ${said}.`,
  zoneIdForm: 'cluster_issuer_acme_route53_hosted_zone_id must be a zone id such as Z0123456789ABCDEFGHIJ.',
  credentialsRefused: (said: string) =>
    `The DNS API refused the temporary credentials the token service just issued: ${said}.`,
  otherPartition:
    'The DNS endpoint belongs to another partition than the token service (check the role ARN and CLOUDGATE_ROUTE53_ENDPOINT/CLOUDGATE_STS_ENDPOINT), or a proxy altered the request.',
  refused: (action: string, said: string) => `The DNS API refused ${action}: ${said}.`,
  retryLater: 'Retry later; if it persists, check the endpoint (CLOUDGATE_ROUTE53_ENDPOINT) and the service status.',
} as const;
