/** Rows of the variables table: the DNS-01 providers cert-manager supports itself. */
import { ROW, ROUTE53_AUTH, DEFAULT_ROUTE53_AUTH, enumOf, TSIG_ALGORITHMS, type Variable } from '../variable-types.js';

export const AZURE_ENVIRONMENTS = ['AzurePublicCloud', 'AzureUSGovernmentCloud', 'AzureChinaCloud', 'AzureGermanCloud'] as const;

export const DNS_PROVIDER_ROWS: Variable[] = [
  // DNS-01 provider azuredns
  {
    name: 'cluster_issuer_acme_azuredns_client_id',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('azuredns'), section: 'DNS-01 provider azuredns', help: 'Service principal client id',
  },
  {
    name: 'cluster_issuer_acme_azuredns_client_secret',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('azuredns'), section: 'DNS-01 provider azuredns', help: 'Service principal secret',
  },
  {
    name: 'cluster_issuer_acme_azuredns_subscription_id',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('azuredns'), section: 'DNS-01 provider azuredns', help: 'Subscription id',
  },
  {
    name: 'cluster_issuer_acme_azuredns_tenant_id',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('azuredns'), section: 'DNS-01 provider azuredns', help: 'Tenant id',
  },
  {
    name: 'cluster_issuer_acme_azuredns_resourcegroup_name',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('azuredns'), section: 'DNS-01 provider azuredns', help: 'Resource group of the DNS zone',
  },
  {
    name: 'cluster_issuer_acme_azuredns_hostedzone_name',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('azuredns'), section: 'DNS-01 provider azuredns', help: 'Hosted zone name',
    example: 'example.com',
  },
  {
    name: 'cluster_issuer_acme_azuredns_secret_name',
    type: 'string', default: 'cert-manager-issuer-azuredns-credentials',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('azuredns'), section: 'DNS-01 provider azuredns',
    help: 'Secret holding the service principal secret',
  },
  {
    name: 'cluster_issuer_acme_azuredns_environment',
    type: 'enum', values: AZURE_ENVIRONMENTS, default: 'AzurePublicCloud',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('azuredns'), section: 'DNS-01 provider azuredns',
    help: 'Cloud the DNS zone lives in (azureDNS.environment)',
    valueHelp: {
      AzurePublicCloud: 'The public cloud (default)', AzureUSGovernmentCloud: 'The US government cloud',
      AzureChinaCloud: 'The China cloud', AzureGermanCloud: 'The German cloud',
    },
  },
  // DNS-01 provider rfc2136
  {
    name: 'cluster_issuer_acme_rfc2136_nameserver', type: 'hostport', required: true, secret: false,
    appliesWhen: ROW.solver('rfc2136'), section: 'DNS-01 provider rfc2136', example: 'ns1.example.com:53',
    help: 'Name server accepting dynamic updates, as host:port (IPv6 in brackets: [2001:db8::1]:53)',
  },
  {
    // cert-manager's own default (HMACMD5) never applies: the platform always passes this variable.
    name: 'cluster_issuer_acme_rfc2136_tsig_algorithm', type: 'enum', values: TSIG_ALGORITHMS,
    required: false, platformNeeds: true, secret: false, appliesWhen: ROW.solver('rfc2136'),
    section: 'DNS-01 provider rfc2136', help: 'TSIG algorithm of the key (needed by the platform, no default)',
    valueHelp: {
      HMACSHA256: 'HMAC-SHA256 (recommended for new keys: tsig-keygen makes these)',
      HMACSHA512: 'HMAC-SHA512',
      HMACSHA1: 'HMAC-SHA1',
      HMACMD5: 'HMAC-MD5 (older keys)',
    },
  },
  {
    name: 'cluster_issuer_acme_rfc2136_tsig_key_name', type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('rfc2136'), section: 'DNS-01 provider rfc2136', help: 'TSIG key name',
    example: 'cert-manager-key',
  },
  {
    name: 'cluster_issuer_acme_rfc2136_tsig_secret_key', type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('rfc2136'), section: 'DNS-01 provider rfc2136', help: 'TSIG secret (base64)',
  },
  {
    name: 'cluster_issuer_acme_rfc2136_secret_name',
    type: 'string', default: 'cert-manager-issuer-tsig-secret-key',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('rfc2136'), section: 'DNS-01 provider rfc2136',
    help: 'Secret holding the TSIG secret',
  },
  // DNS-01 provider route53
  {
    name: 'cluster_issuer_acme_route53_auth',
    ...enumOf(ROUTE53_AUTH),
    default: DEFAULT_ROUTE53_AUTH, required: false, secret: false, appliesWhen: ROW.solver('route53'),
    section: 'DNS-01 provider route53', help: 'How cert-manager authenticates to Route 53',
  },
  {
    name: 'cluster_issuer_acme_route53_region',
    type: 'string',
    required: false, platformNeeds: true, secret: false, appliesWhen: ROW.solver('route53'), section: 'DNS-01 provider route53',
    help: 'Region for DNS API calls (needed by the platform whatever the auth mode, no default)', example: 'us-east-1',
  },
  {
    name: 'cluster_issuer_acme_route53_hosted_zone_id',
    type: 'string',
    required: false, platformNeeds: true, secret: false, appliesWhen: ROW.solver('route53'), section: 'DNS-01 provider route53',
    example: 'Z0123456789ABCDEFGHIJ',
    help: 'Id of the hosted zone holding the domain (needed by the platform whatever the auth mode, no default)',
  },
  {
    name: 'cluster_issuer_acme_route53_access_key_id',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.route53('static'), section: 'DNS-01 provider route53',
    help: 'Access key id allowed to update the hosted zone (static)',
  },
  {
    name: 'cluster_issuer_acme_route53_secret_access_key',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.route53('static'), section: 'DNS-01 provider route53', help: 'Secret access key (static)',
  },
  {
    name: 'cluster_issuer_acme_route53_secret_name',
    type: 'string', default: 'cert-manager-issuer-route53-credentials',
    required: false, secret: false, appliesWhen: ROW.route53('static'), section: 'DNS-01 provider route53',
    help: 'Name of the secret that holds the static credentials',
  },
  {
    name: 'cluster_issuer_acme_route53_role_arn',
    type: 'string', required: false, secret: false,
    // The role adds `role` to the solver whatever the auth mode: after static keys or ambient credentials, it is assumed.
    appliesWhen: ROW.solver('route53'), requiredWhen: ROW.route53('kubernetes'), section: 'DNS-01 provider route53',
    example: 'arn:aws:iam::123456789012:role/cert-manager-dns01',
    help: 'Role to assume (required for auth kubernetes; optional for static and ambient: assumed after those credentials)',
  },
  {
    name: 'cluster_issuer_acme_route53_service_account_name',
    type: 'string', default: 'cert-manager-route53',
    required: false, secret: false, appliesWhen: ROW.route53('kubernetes'), section: 'DNS-01 provider route53',
    help: 'Service account whose projected token is exchanged for the role (auth kubernetes)',
  },
  // DNS-01 provider cloudflare
  {
    name: 'cluster_issuer_acme_cloudflare_api_token',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('cloudflare'), section: 'DNS-01 provider cloudflare', help: 'API token allowed to edit the zone',
  },
  {
    name: 'cluster_issuer_acme_cloudflare_email',
    type: 'email', required: false, secret: false, defaultFrom: 'cluster_issuer_acme_email',
    appliesWhen: ROW.solver('cloudflare'), section: 'DNS-01 provider cloudflare',
    help: 'Provider account email, only when it differs from the ACME email',
  },
  {
    name: 'cluster_issuer_acme_cloudflare_secret_name',
    type: 'string', default: 'cloudflare-api-token',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('cloudflare'), section: 'DNS-01 provider cloudflare',
    help: 'Secret holding the API token',
  },
];
