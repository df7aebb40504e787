/**
 * The acme group's words about the DNS-01 providers' answers (acme.dns-credentials): what each provider's
 * API said to the inventory's credentials, and the fix. One object per provider, then what they share.
 */

const WILDCARD_DOMAIN = 'openstack_helm_ingress_wildcard_domain';

/** What every provider says alike: the credential in the inventory, the probe record, an answer no rule explains. */
export const PROVIDER = {
  vaulted: (name: string) =>
    `${name} is vaulted: Ansible decrypts it only at deploy time. Give the decrypted value in CLOUDGATE_${name.toUpperCase()} or CLOUDGATE_${name.toUpperCase()}_FILE to check it.`,
  templated: (name: string, shown: string) =>
    `${name} is a template (${shown}): its value is known only at deploy time. Give the value in CLOUDGATE_${name.toUpperCase()} to check it.`,
  unset: (name: string) => `${name} is not set: there is nothing to check.`,
  unexpected: (what: string, status: number, body: string | undefined) =>
    `${what}: unexpected answer ${status}${body ? ` (${body})` : ''}.`,
  nothingWritten: ' Nothing was written (give --probe-update to add and remove one TXT record).',
  probeNotDeleted: (record: string, status: string | number) =>
    `--probe-update added the TXT record ${record} but could not delete it (${status}).`,
  failed: (what: string) => `${what} failed`,
} as const;

export const CLOUDFLARE = {
  notActive: (status: string) => `The API token is ${status}.`,
  notActiveStatus: 'not active',
  createToken:
    'Create a new API token with Zone:Read and DNS:Edit on the zone and put it in cluster_issuer_acme_cloudflare_api_token.',
  noDomain: 'The API token is valid and active, but no domain names the zone to look up.',
  giveDomain: `Set ${WILDCARD_DOMAIN} or give --domain to check that the token reaches the zone.`,
  verifying: 'Token verification',
  lookingUp: (zone: string) => `Looking up the zone ${zone}`,
  listing: (zone: string) => `Listing the records of ${zone}`,
  adding: (record: string) => `Adding the TXT record ${record}`,
  noZone: (domain: string) =>
    `The token sees no zone for ${domain} or any parent of it: it has no Zone:Read permission on that zone, or the zone is in another account.`,
  editToken: 'Edit the token: permissions Zone:Read and DNS:Edit, zone resources including this zone.',
  readsZone: (zone: string, note: string) =>
    `The API token is active and reads the zone ${zone} and its records (DNS:Edit is proved only by a write).${note}`,
  deleteByHand: (record: string) => `Delete the TXT record ${record} by hand.`,
  probed: (zone: string, record: string) =>
    `The API token reads the zone ${zone} and --probe-update added and removed the TXT record ${record}.`,
  notAToken: (what: string, status: number, said: string, globalKey: boolean) =>
    `${what} failed: the provider does not accept the value as a token (${status}, ${said || 'invalid Authorization header'})${globalKey ? '; it looks like the global API key' : ''}.`,
  useTokenNotKey: (variable: string) =>
    `The global API key cannot be used as a token. Create an API token (My Profile → API Tokens) with Zone:Read and DNS:Edit on the zone and put it in ${variable}.`,
  invalidToken: (what: string, status: number, said: string) =>
    `${what} failed: the API token is not valid (${status}${said ? `, ${said}` : ''}).`,
  replaceToken: (variable: string) =>
    `Create a new API token with Zone:Read and DNS:Edit on the zone and put it in ${variable} (whole, without spaces).`,
  lacksPermission: (what: string, status: number, said: string) =>
    `${what} failed: the token lacks the permission (${status}${said ? `, ${said}` : ''}).`,
  refused: (what: string, status: number, said: string) => `${what} failed (${status}: ${said}).`,
  checkToken: 'Check the token and its permissions (Zone:Read, DNS:Edit).',
  checkEndpoint: 'Check CLOUDGATE_CLOUDFLARE_ENDPOINT and the network path to the provider.',
} as const;

export const AZUREDNS = {
  noToken: 'The identity platform gave no access token',
  checkLoginEndpoint: (login: string) => `Check CLOUDGATE_AZUREDNS_LOGIN_ENDPOINT (${login}).`,
  readsZone: (tenant: string, zone: string, group: string, note: string) =>
    `The service principal signs in to tenant ${tenant} and reads the zone ${zone} in resource group ${group}.${note}`,
  deleteByHand: (label: string, zone: string) => `Delete the record set ${label} (TXT) in the zone ${zone} by hand.`,
  probed: (zone: string, record: string) =>
    `The service principal reads the zone ${zone} and --probe-update added and removed the TXT record ${record}.`,
  invalidSecret: 'The identity platform refused the client secret (AADSTS7000215: invalid client secret).',
  putSecretValue: (variable: string, clientId: unknown) =>
    `Put the secret's value, not its id, in ${variable}: create a new client secret for the app registration ${clientId}, copy its Value once shown, and update the inventory.`,
  secretExpired: 'The client secret has expired (AADSTS7000222).',
  renewSecret: (variable: string, clientId: unknown) =>
    `Create a new client secret for the app registration ${clientId}, put it in ${variable} and redeploy; note its expiry date.`,
  noTenant: (tenant: unknown, notFound: boolean) =>
    `The tenant ${tenant} does not exist (${notFound ? 'AADSTS90002: tenant not found' : 'AADSTS900023: not a tenant id'}).`,
  putTenantId:
    "Put the directory (tenant) id of the service principal in cluster_issuer_acme_azuredns_tenant_id: the GUID shown on the app registration's overview.",
  noApplication: (tenant: unknown, clientId: unknown) =>
    `The tenant ${tenant} has no application ${clientId} (AADSTS700016).`,
  checkClientId:
    'Check cluster_issuer_acme_azuredns_client_id (the application (client) id) and that the app registration lives in this tenant.',
  refusedPrincipal: (status: number, error: string, said: string) =>
    `The identity platform refused the service principal (${status} ${error}${said ? `: ${said}` : ''}).`,
  checkPrincipal: 'Check the tenant id, client id and client secret of the service principal.',
  tokenRequestFailed: 'The identity platform token request failed',
  checkLoginPath: 'Check CLOUDGATE_AZUREDNS_LOGIN_ENDPOINT and the network path to the identity platform.',
  assignRole: (zone: unknown, group: unknown, clientId: unknown) =>
    `Assign the role "DNS Zone Contributor" on the zone ${zone} (or its resource group ${group}) to the service principal ${clientId}; assignments take a few minutes to apply.`,
  mayNotRead: (zone: unknown) =>
    `The service principal has no role that lets it read the zone ${zone} (403 AuthorizationFailed).`,
  mayNotWrite: (zone: unknown) =>
    `The service principal may read but not change the zone ${zone} (403 AuthorizationFailed on the probe record).`,
  noZone: (group: unknown, zone: unknown) =>
    `The resource group ${group} has no DNS zone ${zone} (404 ResourceNotFound).`,
  checkZoneName:
    'Check cluster_issuer_acme_azuredns_hostedzone_name (the zone name, e.g. example.com) and cluster_issuer_acme_azuredns_resourcegroup_name.',
  noGroup: (group: unknown) => `The subscription has no resource group ${group} (404 ResourceGroupNotFound).`,
  checkGroup: 'Check cluster_issuer_acme_azuredns_resourcegroup_name.',
  noSubscription: (subscription: unknown, status: number, code: string) =>
    `The subscription ${subscription} was not found (${status} ${code}).`,
  checkSubscription: 'Check cluster_issuer_acme_azuredns_subscription_id.',
  otherTenant: (subscription: unknown, tenant: unknown) =>
    `The subscription ${subscription} belongs to another tenant than ${tenant} (401 InvalidAuthenticationTokenTenant).`,
  useOwningTenant:
    'Put the tenant that owns the subscription in cluster_issuer_acme_azuredns_tenant_id (and use a service principal of that tenant).',
  refusedZone: (action: string, zone: unknown, status: number, code: string, said: string) =>
    `The resource manager refused to ${action} the zone ${zone} (${status} ${code}: ${said}).`,
  readFailed: (zone: unknown) => `Reading the zone ${zone} failed`,
  checkEndpoint: 'Check CLOUDGATE_AZUREDNS_ENDPOINT and the network path to the resource manager.',
} as const;

export const GODADDY = {
  listingDomains: "Listing the account's domains",
  readingDomain: (domain: string) => `Reading the domain ${domain}`,
  adding: (record: string) => `Adding the TXT record ${record}`,
  noDomain:
    "The API key and secret are accepted and the account's domains are readable, but no domain names the zone to read.",
  giveDomain: `Set ${WILDCARD_DOMAIN} or give --domain to check the domain itself.`,
  notInAccount: (domain: string) => `The account has no domain ${domain} or any parent of it (404).`,
  useOwningAccount:
    'Use the API key of the account that holds the domain (cluster_issuer_acme_godaddy_api_key / _secret_key).',
  readsDomain: (domain: string, note: string) => `The API key reads the domain ${domain}.${note}`,
  deleteByHand: (label: string, domain: string) => `Delete the TXT record ${label} of ${domain} by hand.`,
  probed: (domain: string, record: string) =>
    `The API key reads the domain ${domain} and --probe-update added and removed the TXT record ${record}.`,
  refused: (what: string, said: string, limit: string) =>
    `${what} was refused (403${said ? ` ${said}` : ''}): ${limit}.`,
  meetLimit:
    'Check that the account meets that limit (or ask the provider to enable API access); a key made for the test environment (OTE) does not work on production either. Otherwise move the zone to another DNS-01 provider.',
  wrongKey: (what: string, said: string) =>
    `${what} failed: the API key or secret is wrong (401${said ? ` ${said}` : ''}).`,
  putProductionKey:
    'Put a production API key and its secret in cluster_issuer_acme_godaddy_api_key and cluster_issuer_acme_godaddy_secret_key.',
  failed: (what: string, status: number, said: string) => `${what} failed (${status} ${said}).`,
  checkKeyAndDomain: 'Check the API key, its secret and the domain.',
  checkEndpoint: 'Check CLOUDGATE_GODADDY_ENDPOINT and the network path to the provider.',
} as const;

export const INFOBLOX = {
  readingView: (view: string) => `Reading the view ${view}`,
  adding: (record: string) => `Adding the TXT record ${record}`,
  checkHost: "Check cluster_issuer_acme_infoblox_host: it should be the grid manager's address.",
  noView: (view: string) => `The grid has no DNS view "${view}" (or this user may not see it).`,
  putView: (views: string[]) =>
    `Put the view that holds the zone in cluster_issuer_acme_infoblox_view${views.length ? ` (views this user sees: ${views.join(', ')})` : ''}.`,
  readsView: (user: string, host: string, view: string, note: string) =>
    `The user ${user} signs in to ${host} and reads the view ${view}.${note}`,
  noDomain: (view: string) =>
    `The user reads the view ${view}, but no domain names the zone, so --probe-update wrote nothing.`,
  giveDomain: `Set ${WILDCARD_DOMAIN} or give --domain.`,
  deleteByHand: (record: string, view: string) => `Delete the TXT record ${record} in the view ${view} by hand.`,
  probed: (view: string, record: string) =>
    `The user reads the view ${view} and --probe-update added and removed the TXT record ${record}.`,
  wrongPassword: (what: string) => `${what} failed: the grid refused the user name or password (401).`,
  checkUser:
    'Check cluster_issuer_acme_infoblox_username and cluster_issuer_acme_infoblox_password, and that the user is allowed the API (its admin group must have the API access).',
  mayNot: (what: string) => `${what} was refused (403): the user may not do this.`,
  grantView: "Give the user's admin group permission on the DNS view and its zones.",
  failed: (what: string, status: number, code: string, said: string) => `${what} failed (${status} ${code}: ${said}).`,
  wapiVersion: (version: string) =>
    `The grid does not speak WAPI ${version}; upgrade it or configure the webhook's version.`,
  checkZone: 'Check that the zone exists in the view and the user may change it.',
  checkHostPath: "Check cluster_issuer_acme_infoblox_host (the grid manager's address) and the network path to it.",
} as const;

export const ROUTE53 = {
  zoneUnreadable: "GetHostedZone is denied (cert-manager does not need it); the zone's records are readable.",
  noZone: (account: string, domain: string) =>
    `The account ${account} has no hosted zone for ${domain} or any parent of it.`,
  setZoneId:
    'Set cluster_issuer_acme_route53_hosted_zone_id to the id of the zone that holds the domain, or use keys of the account that owns it.',
  noZoneNamed: (who: string) => `The keys are valid (${who}), but no hosted zone id or domain names the zone to read.`,
  callerKnown: 'caller identity known',
  giveZone: `Set cluster_issuer_acme_route53_hosted_zone_id (the platform needs it), or ${WILDCARD_DOMAIN} / --domain to look the zone up by name.`,
  theAccount: 'the account',
  readsZone: (who: string, zone: string, note: string) =>
    `The keys are valid for ${who} and read the hosted zone ${zone}.${note}`,
  zoneNameUnknown: (zone: string) =>
    `The keys read the hosted zone ${zone}, but its name is unknown (GetHostedZone is denied), so --probe-update wrote nothing.`,
  allowGetHostedZone: `Allow route53:GetHostedZone, or set ${WILDCARD_DOMAIN}, to let --probe-update name its record.`,
  deleteByHand: (record: string, zone: string) => `Delete the TXT record ${record} in the hosted zone ${zone} by hand.`,
  probed: (zone: string, record: string) =>
    `The keys read the hosted zone ${zone} and --probe-update added and removed the TXT record ${record}.`,
  invalidKeyId: (action: string) =>
    `The access key id is not valid (${action}: InvalidClientTokenId): the key was deleted, deactivated, or belongs to another partition.`,
  createKey: (variable: string) =>
    `Create an access key for the IAM user cert-manager uses and put it in ${variable} and cluster_issuer_acme_route53_secret_access_key.`,
  secretMismatch: (action: string) =>
    `The secret access key does not match the access key id (${action}: SignatureDoesNotMatch).`,
  putMatchingSecret:
    'Put the secret that was shown with this access key in cluster_issuer_acme_route53_secret_access_key (no spaces or line breaks), or create a new key pair.',
  expired: (action: string) => `The credentials have expired (${action}: ExpiredToken).`,
  useStaticKeys: 'Static keys do not expire: use the long-lived keys of an IAM user, not temporary credentials.',
  clockSkew: (action: string) =>
    `The request was signed too far from the provider's clock (${action}: RequestExpired).`,
  setClock: "Set this machine's clock right (NTP) and run again.",
  denied: (action: string, said: string) =>
    `The keys are valid but may not call ${action} (AccessDenied${said ? `: ${said}` : ''}).`,
  allowListZones:
    'Allow route53:ListHostedZonesByName on "*" for this IAM user, or set cluster_issuer_acme_route53_hosted_zone_id.',
  allowAction: (action: string) =>
    `Allow the IAM user route53:${action}${action === 'ChangeResourceRecordSets' ? '' : ', route53:ChangeResourceRecordSets'} and route53:ListResourceRecordSets on arn:aws:route53:::hostedzone/<id>, and route53:GetChange on arn:aws:route53:::change/*.`,
  noSuchZone: (zone: unknown, account: string, action: string) =>
    `There is no hosted zone ${zone} in the account ${account} (${action}: NoSuchHostedZone).`,
  putZoneId:
    'Put the id of the zone that holds the domain in cluster_issuer_acme_route53_hosted_zone_id (e.g. Z0123456789ABC, without /hostedzone/).',
  invalidInput: (action: string, said: string) =>
    `The provider refused the request as invalid (${action}: InvalidInput${said ? `: ${said}` : ''}).`,
  checkZoneId: 'Check cluster_issuer_acme_route53_hosted_zone_id.',
  failed: (action: string, status: number, code: string, said: string) =>
    `${action} failed (${status} ${code}${said ? `: ${said}` : ''}).`,
  checkKeysAndZone: 'Check the access keys and the hosted zone id.',
  checkEndpoint:
    'Check CLOUDGATE_ROUTE53_ENDPOINT / CLOUDGATE_ROUTE53_STS_ENDPOINT and the network path to the provider.',
} as const;
