/** Rows of the variables table: the DNS-01 providers served by a webhook the role installs with Helm. */
import { ROW, type Solver, type Variable } from '../variable-types.js';

/** A webhook provider: the role's defaults for its Helm release and RBAC objects. */
interface Webhook {
  solver: Solver;
  /** Release name; the service account is named after it. */
  release: string;
  /** The chart's folder name (uploaded to the hosts, installed from there). */
  chart: string;
  secret: string;
  role: string;
}

const GODADDY: Webhook = {
  solver: 'godaddy',
  release: 'cert-manager-webhook-godaddy',
  chart: 'godaddy-webhook',
  secret: 'godaddy-api-key',
  role: 'webhook-godaddy:secret-reader',
};
const INFOBLOX: Webhook = {
  solver: 'infoblox',
  release: 'cert-manager-webhook-infoblox-wapi',
  chart: 'cert-manager-webhook-infoblox-wapi',
  secret: 'cert-manager-issuer-infoblox-credentials',
  role: 'webhook-infoblox-wapi:secret-reader',
};

/** The Helm release, chart, API group and RBAC rows every webhook provider has (the role's defaults). */
function helmReleaseRows(w: Webhook): Variable[] {
  const name = (suffix: string) => `cluster_issuer_acme_${w.solver}_${suffix}`;
  const row = (suffix: string, fields: Partial<Variable>, help: string): Variable => ({
    name: name(suffix),
    type: 'string',
    ...fields,
    required: false,
    secret: false,
    asked: false,
    appliesWhen: ROW.solver(w.solver),
    section: `DNS-01 provider ${w.solver}`,
    help,
  });
  return [
    row(
      'helm_release_name',
      { default: w.release },
      'Helm release of the webhook (its service account is named after it by default)',
    ),
    row(
      'helm_release_namespace',
      { default: 'cert-manager' },
      'Namespace of the webhook release, its credentials Secret and RBAC objects',
    ),
    row(
      'helm_chart_path',
      { default: `../../charts/${w.chart}/` },
      "Chart folder uploaded to the hosts (relative to the platform's playbooks)",
    ),
    row(
      'helm_chart_ref',
      { default: `/usr/local/src/${w.chart}` },
      'Where the chart is uploaded on the hosts, and installed from',
    ),
    row(
      'helm_values',
      { type: 'map' },
      "Helm values merged (recursively) over the role's own {groupName: <group name>}",
    ),
    row(
      'group_name',
      { default: `${w.solver}.cert-manager.atmosphere.dev` },
      'API group of the webhook (its release values and solvers[].dns01.webhook.groupName)',
    ),
    row('secret_name', { default: w.secret }, 'Secret holding the credentials, read by the webhook'),
    row('role_name', { default: w.role }, 'Role that lets the webhook read the credentials Secret'),
    row(
      'role_binding_name',
      { defaultFrom: name('role_name') },
      "RoleBinding of that Role to the webhook's service account",
    ),
    row(
      'service_account_name',
      { defaultFrom: name('helm_release_name') },
      "Service account of the webhook (the RoleBinding's subject); the chart names it after the release",
    ),
  ];
}

export const WEBHOOK_ROWS: Variable[] = [
  // DNS-01 provider godaddy
  {
    name: 'cluster_issuer_acme_godaddy_api_key',
    type: 'string',
    required: true,
    secret: true,
    appliesWhen: ROW.solver('godaddy'),
    section: 'DNS-01 provider godaddy',
    help: 'API key',
  },
  {
    name: 'cluster_issuer_acme_godaddy_secret_key',
    type: 'string',
    required: true,
    secret: true,
    appliesWhen: ROW.solver('godaddy'),
    section: 'DNS-01 provider godaddy',
    help: 'API secret key',
  },
  ...helmReleaseRows(GODADDY),
  {
    name: 'cluster_issuer_acme_godaddy_is_production',
    type: 'bool',
    default: true,
    required: false,
    secret: false,
    asked: false,
    appliesWhen: ROW.solver('godaddy'),
    section: 'DNS-01 provider godaddy',
    help: "false: the webhook uses GoDaddy's test environment (config.production)",
  },
  {
    name: 'cluster_issuer_acme_godaddy_ttl',
    type: 'int',
    default: 600,
    required: false,
    secret: false,
    asked: false,
    appliesWhen: ROW.solver('godaddy'),
    section: 'DNS-01 provider godaddy',
    help: 'TTL in seconds of the challenge records (config.ttl)',
  },
  // DNS-01 provider infoblox
  {
    name: 'cluster_issuer_acme_infoblox_view',
    type: 'string',
    required: true,
    secret: false,
    appliesWhen: ROW.solver('infoblox'),
    section: 'DNS-01 provider infoblox',
    help: 'DNS view holding the zone',
    example: 'default',
  },
  {
    name: 'cluster_issuer_acme_infoblox_host',
    type: 'string',
    required: true,
    secret: false,
    appliesWhen: ROW.solver('infoblox'),
    section: 'DNS-01 provider infoblox',
    help: "Host of the Infoblox grid's API (WAPI)",
    example: 'dns.example.com',
  },
  {
    name: 'cluster_issuer_acme_infoblox_username',
    type: 'string',
    required: true,
    secret: false,
    appliesWhen: ROW.solver('infoblox'),
    section: 'DNS-01 provider infoblox',
    help: 'API user name',
  },
  {
    name: 'cluster_issuer_acme_infoblox_password',
    type: 'string',
    required: true,
    secret: true,
    appliesWhen: ROW.solver('infoblox'),
    section: 'DNS-01 provider infoblox',
    help: 'API password',
  },
  ...helmReleaseRows(INFOBLOX),
];
