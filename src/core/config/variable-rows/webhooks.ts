/** Rows of the variables table: the DNS-01 providers served by a webhook the role installs with Helm. */
import { ROW, type Solver, type Variable } from '../variable-types.js';

/** A webhook provider: its words in each naming and the defaults of its Helm release and RBAC objects. */
interface Webhook {
  neutral: Solver;
  platform: string;
  /** Release name; the service account and (with a `/`) the chart folders are named after it. */
  release: [neutral: string, platform: string];
  chart: [neutral: string, platform: string];
  secret: [neutral: string, platform: string];
  role: [neutral: string, platform: string];
}

const DNSD: Webhook = {
  neutral: 'dnsd', platform: 'godaddy', release: ['certmgr-webhook-dnsd', 'cert-manager-webhook-godaddy'],
  chart: ['dnsd-webhook', 'godaddy-webhook'], secret: ['dnsd-api-key', 'godaddy-api-key'],
  role: ['webhook-dnsd:secret-reader', 'webhook-godaddy:secret-reader'],
};
const DNSE: Webhook = {
  neutral: 'dnse', platform: 'infoblox', release: ['certmgr-webhook-dnse-wapi', 'cert-manager-webhook-infoblox-wapi'],
  chart: ['certmgr-webhook-dnse-wapi', 'cert-manager-webhook-infoblox-wapi'],
  secret: ['certmgr-issuer-dnse-credentials', 'cert-manager-issuer-infoblox-credentials'],
  role: ['webhook-dnse-wapi:secret-reader', 'webhook-infoblox-wapi:secret-reader'],
};

/** The Helm release, chart, API group and RBAC rows every webhook provider has (the role's defaults). */
function helmReleaseRows(w: Webhook): Variable[] {
  const name = (suffix: string) => `cluster_issuer_acme_${w.neutral}_${suffix}`;
  const row = (suffix: string, fields: Partial<Variable>, help: string): Variable => ({
    name: name(suffix), platformName: `cluster_issuer_acme_${w.platform}_${suffix}`, type: 'string',
    ...fields, required: false, secret: false, asked: false, appliesWhen: ROW.solver(w.neutral), section: `DNS-01 provider ${w.neutral}`, help,
  });
  return [
    row('helm_release_name', { default: w.release[0], platformDefault: w.release[1] }, 'Helm release of the webhook (its service account is named after it by default)'),
    row('helm_release_namespace', { default: 'cert-manager' }, 'Namespace of the webhook release, its credentials Secret and RBAC objects'),
    row('helm_chart_path', { default: `../../charts/${w.chart[0]}/`, platformDefault: `../../charts/${w.chart[1]}/` }, 'Chart folder uploaded to the hosts (relative to the platform\'s playbooks)'),
    row('helm_chart_ref', { default: `/usr/local/src/${w.chart[0]}`, platformDefault: `/usr/local/src/${w.chart[1]}` }, 'Where the chart is uploaded on the hosts, and installed from'),
    row('helm_values', { type: 'map' }, 'Helm values merged (recursively) over the role\'s own {groupName: <group name>}'),
    row('group_name', { default: `${w.neutral}.certmgr.atmosphere.dev`, platformDefault: `${w.platform}.cert-manager.atmosphere.dev` }, 'API group of the webhook (its release values and solvers[].dns01.webhook.groupName)'),
    row('secret_name', { default: w.secret[0], platformDefault: w.secret[1] }, 'Secret holding the credentials, read by the webhook'),
    row('role_name', { default: w.role[0], platformDefault: w.role[1] }, 'Role that lets the webhook read the credentials Secret'),
    row('role_binding_name', { defaultFrom: name('role_name') }, 'RoleBinding of that Role to the webhook\'s service account'),
    row('service_account_name', { defaultFrom: name('helm_release_name') }, 'Service account of the webhook (the RoleBinding\'s subject); the chart names it after the release'),
  ];
}

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
  ...helmReleaseRows(DNSD),
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
  ...helmReleaseRows(DNSE),
];
