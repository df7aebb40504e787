/** Rows of the variables table: the DNS-01 providers cert-manager supports itself. */
import { ROW, CLOUDDNSB_AUTH_MODES, DEFAULT_CLOUDDNSB_AUTH, TSIG_ALGORITHMS, type Variable } from '../variable-types.js';

export const AZURE_ENVIRONMENTS = ['AzurePublicCloud', 'AzureUSGovernmentCloud', 'AzureChinaCloud', 'AzureGermanCloud'] as const;

export const DNS_PROVIDER_ROWS: Variable[] = [
  // DNS-01 provider clouddnsa
  {
    name: 'cluster_issuer_acme_clouddnsa_client_id', platformName: 'cluster_issuer_acme_azuredns_client_id',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Service principal client id',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_client_secret', platformName: 'cluster_issuer_acme_azuredns_client_secret',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Service principal secret',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_subscription_id', platformName: 'cluster_issuer_acme_azuredns_subscription_id',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Subscription id',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_tenant_id', platformName: 'cluster_issuer_acme_azuredns_tenant_id',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Tenant id',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_resourcegroup_name', platformName: 'cluster_issuer_acme_azuredns_resourcegroup_name',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Resource group of the DNS zone',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_hostedzone_name', platformName: 'cluster_issuer_acme_azuredns_hostedzone_name',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Hosted zone name',
    example: 'example.com',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_secret_name', platformName: 'cluster_issuer_acme_azuredns_secret_name',
    type: 'string', default: 'certmgr-issuer-clouddnsa-credentials', platformDefault: 'cert-manager-issuer-azuredns-credentials',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('clouddnsa'), section: 'DNS-01 provider clouddnsa',
    help: 'Secret holding the service principal secret',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_environment', platformName: 'cluster_issuer_acme_azuredns_environment',
    type: 'enum', values: AZURE_ENVIRONMENTS, default: 'AzurePublicCloud',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('clouddnsa'), section: 'DNS-01 provider clouddnsa',
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
    example: 'certmgr-key',
  },
  {
    name: 'cluster_issuer_acme_rfc2136_tsig_secret_key', type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('rfc2136'), section: 'DNS-01 provider rfc2136', help: 'TSIG secret (base64)',
  },
  {
    name: 'cluster_issuer_acme_rfc2136_secret_name',
    type: 'string', default: 'certmgr-issuer-tsig-secret-key', platformDefault: 'cert-manager-issuer-tsig-secret-key',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('rfc2136'), section: 'DNS-01 provider rfc2136',
    help: 'Secret holding the TSIG secret',
  },
  // DNS-01 provider clouddnsb
  {
    name: 'cluster_issuer_acme_clouddnsb_auth', platformName: 'cluster_issuer_acme_route53_auth',
    type: 'enum', values: CLOUDDNSB_AUTH_MODES,
    default: DEFAULT_CLOUDDNSB_AUTH, required: false, secret: false, appliesWhen: ROW.solver('clouddnsb'),
    section: 'DNS-01 provider clouddnsb', help: 'How the certificate manager authenticates to the DNS API',
    valueHelp: {
      static: 'Access key id and secret access key in the inventory (long-lived keys)',
      ambient: 'Credentials from the certificate manager\'s environment (default chain); optional role to assume',
      clusteroidc: 'Keyless (Kubernetes service-account tokens): the cluster\'s token exchanged for a role (needs CRDs >= 1.15.0)',
    },
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_region', platformName: 'cluster_issuer_acme_route53_region',
    type: 'string',
    required: false, platformNeeds: true, secret: false, appliesWhen: ROW.solver('clouddnsb'), section: 'DNS-01 provider clouddnsb',
    help: 'Region for DNS API calls (needed by the platform whatever the auth mode, no default)', example: 'us-east-1',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_hosted_zone_id', platformName: 'cluster_issuer_acme_route53_hosted_zone_id',
    type: 'string',
    required: false, platformNeeds: true, secret: false, appliesWhen: ROW.solver('clouddnsb'), section: 'DNS-01 provider clouddnsb',
    example: 'Z0123456789ABCDEFGHIJ',
    help: 'Id of the hosted zone holding the domain (needed by the platform whatever the auth mode, no default)',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_access_key_id', platformName: 'cluster_issuer_acme_route53_access_key_id',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.clouddnsb('static'), section: 'DNS-01 provider clouddnsb',
    help: 'Access key id allowed to update the hosted zone (static)',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_secret_access_key', platformName: 'cluster_issuer_acme_route53_secret_access_key',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.clouddnsb('static'), section: 'DNS-01 provider clouddnsb', help: 'Secret access key (static)',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_secret_name', platformName: 'cluster_issuer_acme_route53_secret_name',
    type: 'string', default: 'certmgr-issuer-clouddnsb-credentials', platformDefault: 'cert-manager-issuer-route53-credentials',
    required: false, secret: false, appliesWhen: ROW.clouddnsb('static'), section: 'DNS-01 provider clouddnsb',
    help: 'Name of the secret that holds the static credentials',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_role_arn', platformName: 'cluster_issuer_acme_route53_role_arn',
    type: 'string', required: false, secret: false,
    appliesWhen: ROW.clouddnsb('ambient', 'clusteroidc'), requiredWhen: ROW.clouddnsb('clusteroidc'), section: 'DNS-01 provider clouddnsb',
    example: 'arn:aws:iam::123456789012:role/certmgr-dns01',
    help: 'Role to assume (required for clusteroidc; optional for ambient)',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_service_account_name', platformName: 'cluster_issuer_acme_route53_service_account_name',
    type: 'string', default: 'certmgr-clouddnsb', platformDefault: 'cert-manager-route53',
    required: false, secret: false, appliesWhen: ROW.clouddnsb('clusteroidc'), section: 'DNS-01 provider clouddnsb',
    help: 'Service account whose projected token is exchanged for the role (clusteroidc)',
  },
  // DNS-01 provider dnsc
  {
    name: 'cluster_issuer_acme_dnsc_api_token', platformName: 'cluster_issuer_acme_cloudflare_api_token',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('dnsc'), section: 'DNS-01 provider dnsc', help: 'API token allowed to edit the zone',
  },
  {
    name: 'cluster_issuer_acme_dnsc_email', platformName: 'cluster_issuer_acme_cloudflare_email',
    type: 'email', required: false, secret: false, defaultFrom: 'cluster_issuer_acme_email',
    appliesWhen: ROW.solver('dnsc'), section: 'DNS-01 provider dnsc',
    help: 'Provider account email, only when it differs from the ACME email',
  },
  {
    name: 'cluster_issuer_acme_dnsc_secret_name', platformName: 'cluster_issuer_acme_cloudflare_secret_name',
    type: 'string', default: 'dnsc-api-token', platformDefault: 'cloudflare-api-token',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsc'), section: 'DNS-01 provider dnsc',
    help: 'Secret holding the API token',
  },
];
