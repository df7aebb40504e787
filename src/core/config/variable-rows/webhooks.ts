/** Rows of the variables table: the DNS-01 providers served by a webhook the role installs with Helm. */
import { ROW, type Variable } from '../variable-types.js';

export const WEBHOOK_ROWS: Variable[] = [
  // DNS-01 provider dnsd
  {
    name: 'cluster_issuer_acme_dnsd_api_key', platformName: 'cluster_issuer_acme_godaddy_api_key',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd', help: 'API key',
  },
  {
    name: 'cluster_issuer_acme_dnsd_secret_key', platformName: 'cluster_issuer_acme_godaddy_secret_key',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd', help: 'API secret key',
  },
  {
    name: 'cluster_issuer_acme_dnsd_helm_release_name', platformName: 'cluster_issuer_acme_godaddy_helm_release_name',
    type: 'string', default: 'certmgr-webhook-dnsd', platformDefault: 'cert-manager-webhook-godaddy',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'Helm release of the webhook (its service account is named after it by default)',
  },
  {
    name: 'cluster_issuer_acme_dnsd_helm_release_namespace', platformName: 'cluster_issuer_acme_godaddy_helm_release_namespace',
    type: 'string', default: 'cert-manager',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'Namespace of the webhook release, its credentials Secret and RBAC objects',
  },
  {
    name: 'cluster_issuer_acme_dnsd_helm_chart_path', platformName: 'cluster_issuer_acme_godaddy_helm_chart_path',
    type: 'string', default: '../../charts/dnsd-webhook/', platformDefault: '../../charts/godaddy-webhook/',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'Chart folder uploaded to the hosts (relative to the platform\'s playbooks)',
  },
  {
    name: 'cluster_issuer_acme_dnsd_helm_chart_ref', platformName: 'cluster_issuer_acme_godaddy_helm_chart_ref',
    type: 'string', default: '/usr/local/src/dnsd-webhook', platformDefault: '/usr/local/src/godaddy-webhook',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'Where the chart is uploaded on the hosts, and installed from',
  },
  {
    name: 'cluster_issuer_acme_dnsd_helm_values', platformName: 'cluster_issuer_acme_godaddy_helm_values',
    type: 'map', 
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'Helm values merged (recursively) over the role\'s own {groupName: <group name>}',
  },
  {
    name: 'cluster_issuer_acme_dnsd_group_name', platformName: 'cluster_issuer_acme_godaddy_group_name',
    type: 'string', default: 'dnsd.certmgr.atmosphere.dev', platformDefault: 'godaddy.cert-manager.atmosphere.dev',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'API group of the webhook (its release values and solvers[].dns01.webhook.groupName)',
  },
  {
    name: 'cluster_issuer_acme_dnsd_secret_name', platformName: 'cluster_issuer_acme_godaddy_secret_name',
    type: 'string', default: 'dnsd-api-key', platformDefault: 'godaddy-api-key',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'Secret holding the credentials, read by the webhook',
  },
  {
    name: 'cluster_issuer_acme_dnsd_role_name', platformName: 'cluster_issuer_acme_godaddy_role_name',
    type: 'string', default: 'webhook-dnsd:secret-reader', platformDefault: 'webhook-godaddy:secret-reader',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'Role that lets the webhook read the credentials Secret',
  },
  {
    name: 'cluster_issuer_acme_dnsd_role_binding_name', platformName: 'cluster_issuer_acme_godaddy_role_binding_name',
    type: 'string', defaultFrom: 'cluster_issuer_acme_dnsd_role_name',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'RoleBinding of that Role to the webhook\'s service account',
  },
  {
    name: 'cluster_issuer_acme_dnsd_service_account_name', platformName: 'cluster_issuer_acme_godaddy_service_account_name',
    type: 'string', defaultFrom: 'cluster_issuer_acme_dnsd_helm_release_name',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'Service account of the webhook (the RoleBinding\'s subject); the chart names it after the release',
  },
  {
    name: 'cluster_issuer_acme_dnsd_is_production', platformName: 'cluster_issuer_acme_godaddy_is_production',
    type: 'bool', default: true,
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'false: the webhook uses the provider\'s test environment (config.production)',
  },
  {
    name: 'cluster_issuer_acme_dnsd_ttl', platformName: 'cluster_issuer_acme_godaddy_ttl',
    type: 'int', default: 600,
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnsd'), section: 'DNS-01 provider dnsd',
    help: 'TTL in seconds of the challenge records (config.ttl)',
  },
  // DNS-01 provider dnse
  {
    name: 'cluster_issuer_acme_dnse_view', platformName: 'cluster_issuer_acme_infoblox_view',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse', help: 'DNS view holding the zone', example: 'default',
  },
  {
    name: 'cluster_issuer_acme_dnse_host', platformName: 'cluster_issuer_acme_infoblox_host',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse', help: 'Host of the DNS appliance API',
    example: 'dns.example.com',
  },
  {
    name: 'cluster_issuer_acme_dnse_username', platformName: 'cluster_issuer_acme_infoblox_username',
    type: 'string', required: true, secret: false,
    appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse', help: 'API user name',
  },
  {
    name: 'cluster_issuer_acme_dnse_password', platformName: 'cluster_issuer_acme_infoblox_password',
    type: 'string', required: true, secret: true,
    appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse', help: 'API password',
  },
  {
    name: 'cluster_issuer_acme_dnse_helm_release_name', platformName: 'cluster_issuer_acme_infoblox_helm_release_name',
    type: 'string', default: 'certmgr-webhook-dnse-wapi', platformDefault: 'cert-manager-webhook-infoblox-wapi',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'Helm release of the webhook (its service account is named after it by default)',
  },
  {
    name: 'cluster_issuer_acme_dnse_helm_release_namespace', platformName: 'cluster_issuer_acme_infoblox_helm_release_namespace',
    type: 'string', default: 'cert-manager',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'Namespace of the webhook release, its credentials Secret and RBAC objects',
  },
  {
    name: 'cluster_issuer_acme_dnse_helm_chart_path', platformName: 'cluster_issuer_acme_infoblox_helm_chart_path',
    type: 'string', default: '../../charts/certmgr-webhook-dnse-wapi/', platformDefault: '../../charts/cert-manager-webhook-infoblox-wapi/',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'Chart folder uploaded to the hosts (relative to the platform\'s playbooks)',
  },
  {
    name: 'cluster_issuer_acme_dnse_helm_chart_ref', platformName: 'cluster_issuer_acme_infoblox_helm_chart_ref',
    type: 'string', default: '/usr/local/src/certmgr-webhook-dnse-wapi', platformDefault: '/usr/local/src/cert-manager-webhook-infoblox-wapi',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'Where the chart is uploaded on the hosts, and installed from',
  },
  {
    name: 'cluster_issuer_acme_dnse_helm_values', platformName: 'cluster_issuer_acme_infoblox_helm_values',
    type: 'map', 
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'Helm values merged (recursively) over the role\'s own {groupName: <group name>}',
  },
  {
    name: 'cluster_issuer_acme_dnse_group_name', platformName: 'cluster_issuer_acme_infoblox_group_name',
    type: 'string', default: 'dnse.certmgr.atmosphere.dev', platformDefault: 'infoblox.cert-manager.atmosphere.dev',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'API group of the webhook (its release values and solvers[].dns01.webhook.groupName)',
  },
  {
    name: 'cluster_issuer_acme_dnse_secret_name', platformName: 'cluster_issuer_acme_infoblox_secret_name',
    type: 'string', default: 'certmgr-issuer-dnse-credentials', platformDefault: 'cert-manager-issuer-infoblox-credentials',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'Secret holding the credentials, read by the webhook',
  },
  {
    name: 'cluster_issuer_acme_dnse_role_name', platformName: 'cluster_issuer_acme_infoblox_role_name',
    type: 'string', default: 'webhook-dnse-wapi:secret-reader', platformDefault: 'webhook-infoblox-wapi:secret-reader',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'Role that lets the webhook read the credentials Secret',
  },
  {
    name: 'cluster_issuer_acme_dnse_role_binding_name', platformName: 'cluster_issuer_acme_infoblox_role_binding_name',
    type: 'string', defaultFrom: 'cluster_issuer_acme_dnse_role_name',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'RoleBinding of that Role to the webhook\'s service account',
  },
  {
    name: 'cluster_issuer_acme_dnse_service_account_name', platformName: 'cluster_issuer_acme_infoblox_service_account_name',
    type: 'string', defaultFrom: 'cluster_issuer_acme_dnse_helm_release_name',
    required: false, secret: false, asked: false, appliesWhen: ROW.solver('dnse'), section: 'DNS-01 provider dnse',
    help: 'Service account of the webhook (the RoleBinding\'s subject); the chart names it after the release',
  },
];
