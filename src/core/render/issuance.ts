/**
 * What deploys but never issues: the rules across the objects the role applies that cert-manager and
 * the webhooks need at solve time, which no admission check sees.
 *
 * - cert-manager reads a ClusterIssuer's Secrets, and sends a webhook solver its challenges with, the
 *   cluster resource namespace: `cert-manager` (the platform installs cert-manager there), unless the
 *   inventory moves cert-manager (`cert_manager_helm_release_namespace`) or sets
 *   `cert_manager_helm_values.clusterResourceNamespace`.
 * - A webhook serves the API group of its Helm values' `groupName`; the solver must name that group.
 * - Each webhook chart runs as a service account named after the chart's `fullname`; the GoDaddy chart
 *   lets it read Secrets everywhere, the Infoblox chart does not, so there the role's RoleBinding must
 *   name that account.
 * - What each solver does with its config and Secret when it solves (cert-manager v1.15.5, GoDaddy
 *   webhook 0.3.0, Infoblox webhook 1.5.2).
 */
import { isRecord } from '../records.js';
import { validNameserver } from './cert-manager-webhook.js';
import { label } from './check.js';
import { CERT_MANAGER_NAMESPACE } from './names.js';
import { isUnknownValue, type Conversion } from './values.js';
import type { HelmRelease, KubeObject, RenderedObject, RenderFinding } from './types.js';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isRecord(v) ? v : {});
const text = (v: unknown): string | undefined => (typeof v === 'string' && !isUnknownValue(v) ? v : undefined);
const first = (v: unknown): unknown => (Array.isArray(v) ? v[0] : undefined);

export interface IssuanceContext {
  /** The deploying host's values (for cert-manager's own settings, which other roles read). */
  values: Record<string, unknown>;
  conversion: Conversion;
}

/** The chart each webhook release installs: its name (for `fullname`) and whether it grants reading Secrets. */
const CHARTS: Record<string, { chart: string; readsSecrets: boolean; version: string }> = {
  godaddy: { chart: 'godaddy-webhook', readsSecrets: true, version: 'GoDaddy webhook chart 0.3.0' },
  'infoblox-wapi': {
    chart: 'cert-manager-webhook-infoblox-wapi',
    readsSecrets: false,
    version: 'Infoblox webhook chart 1.5.2',
  },
};

export function issuanceFindings(
  objects: RenderedObject[],
  helm: HelmRelease[],
  context: IssuanceContext,
): RenderFinding[] {
  const out: RenderFinding[] = [];
  const issuer =
    objects.find((o) => o.part === 'issuer')?.object ??
    objects.find((o) => o.object.kind === 'ClusterIssuer' && o.object.metadata.name !== 'self-signed')?.object;
  const crn = clusterResourceNamespace(context.values);
  if (crn.namespace !== CERT_MANAGER_NAMESPACE) {
    const names = objects
      .filter((o) => o.object.kind === 'Secret' && o.object.metadata.namespace === CERT_MANAGER_NAMESPACE)
      .map((o) => label(o.object));
    if (names.length) {
      out.push({
        variable: crn.from,
        severity: 'error',
        rule: 'never-issues',
        message: `cert-manager reads a ClusterIssuer's Secrets from its cluster resource namespace, "${crn.namespace}" (${crn.from}), but the role writes ${names.join(', ')} in "${CERT_MANAGER_NAMESPACE}": the issuer never finds its credentials.`,
        advice: `Keep cert-manager's cluster resource namespace at ${CERT_MANAGER_NAMESPACE} (remove ${crn.from}): the platform's role always writes the credentials there.`,
      });
    }
  }
  if (!issuer) return out;
  const solver = rec(first(rec(rec(issuer.spec).acme).solvers));
  const dns01 = rec(solver.dns01);
  if (isRecord(dns01.webhook))
    out.push(...webhookFindings(issuer, rec(dns01.webhook), objects, helm, crn.namespace, context));
  if (isRecord(dns01.route53)) out.push(...route53Findings(rec(dns01.route53), objects));
  if (isRecord(dns01.rfc2136)) out.push(...rfc2136Findings(rec(dns01.rfc2136), objects));
  if (isRecord(solver.http01)) {
    const cls = rec(rec(solver.http01).ingress).class;
    if (cls === '') {
      out.push({
        variable: 'cluster_issuer_acme_http01_ingress_class',
        severity: 'error',
        rule: 'never-issues',
        message:
          "The HTTP-01 solver's ingress class is empty: cert-manager creates the challenge ingress for no ingress controller, so the ACME server never reaches the challenge.",
        advice:
          "Remove cluster_issuer_acme_http01_ingress_class (its default is the platform's ingress class), or give the class name.",
      });
    }
  }
  out.push(...emptyCredentials(objects));
  return out;
}

/** cert-manager's cluster resource namespace, and the variable that sets it. */
function clusterResourceNamespace(values: Record<string, unknown>): { namespace: string; from: string } {
  const own = text(rec(values.cert_manager_helm_values).clusterResourceNamespace);
  if (own) return { namespace: own, from: 'cert_manager_helm_values' };
  const release = text(values.cert_manager_helm_release_namespace);
  if (release && !release.includes('{{')) return { namespace: release, from: 'cert_manager_helm_release_namespace' };
  return { namespace: CERT_MANAGER_NAMESPACE, from: 'cert_manager_helm_release_namespace' };
}

/** Helm's `fullname` of a chart (both webhook charts use the common helper). */
export function chartFullname(release: string, chart: string, values: Obj): string {
  const cut = (s: string) => s.slice(0, 63).replace(/-+$/, '');
  const override = text(values.fullnameOverride);
  if (override) return cut(override);
  const name = text(values.nameOverride) || chart;
  return cut(release.includes(name) ? release : `${release}-${name}`);
}

function webhookFindings(
  issuer: KubeObject,
  hook: Obj,
  objects: RenderedObject[],
  helm: HelmRelease[],
  crn: string,
  context: IssuanceContext,
): RenderFinding[] {
  const out: RenderFinding[] = [];
  const solverName = text(hook.solverName) ?? '';
  const chart = CHARTS[solverName];
  const provider = solverName === 'godaddy' ? 'godaddy' : 'infoblox';
  const p = `cluster_issuer_acme_${provider}_`;
  const release = helm[0];
  const config = rec(hook.config);
  const secretName = text(rec(config.apiKeySecretRef ?? config.usernameSecretRef).name);
  const credentials = objects.find((o) => o.object.kind === 'Secret' && o.object.metadata.name === secretName)?.object;
  // Where the webhook reads its Secret: the challenge's resource namespace, cert-manager's cluster resource namespace.
  const where = text(credentials?.metadata.namespace);
  if (credentials && where && where !== crn) {
    out.push({
      variable: `${p}helm_release_namespace`,
      severity: 'error',
      rule: 'never-issues',
      message: `The role writes the ${provider} credentials Secret (and the Role that may read it) in "${where}" (${p}helm_release_namespace), but the webhook reads it from the namespace cert-manager sends with each challenge, its cluster resource namespace "${crn}": every challenge fails with secrets "${secretName}" not found.`,
      advice: `Keep ${p}helm_release_namespace at ${crn} (remove the line): the webhook, its Secret and its Role then share cert-manager's namespace.`,
    });
  }
  if (release) {
    const values = rec(release.values);
    const served = values.groupName;
    const named = hook.groupName;
    if (typeof served === 'string' && typeof named === 'string' && !isUnknownValue(served) && !isUnknownValue(named)) {
      if (served === '') {
        out.push({
          variable: `${p}group_name`,
          severity: 'error',
          rule: 'helm-refuses',
          message: `The ${provider} webhook's API group is empty: its chart's APIService "v1alpha1." is no valid name, so Helm fails to install the release (and the webhook would stop with "GROUP_NAME must be specified").`,
          advice: `Remove ${p}group_name (and groupName from ${p}helm_values), or give a DNS name.`,
        });
      } else if (served !== named) {
        out.push({
          variable: `${p}helm_values`,
          severity: 'error',
          rule: 'never-issues',
          message: `${p}helm_values sets groupName "${served}", which wins over the role's own, so the webhook serves the API group "${served}", while the solver sends its challenges to "${named}" (${p}group_name): cert-manager gets "the server could not find the requested resource" for every challenge.`,
          advice: `Remove groupName from ${p}helm_values and set ${p}group_name only: the role gives the webhook and the solver the same group.`,
        });
      }
    }
    const manager = rec(values.certManager);
    const managerAccount = text(manager.serviceAccountName);
    const managerNamespace = text(manager.namespace);
    if ((managerAccount && managerAccount !== 'cert-manager') || (managerNamespace && managerNamespace !== crn)) {
      out.push({
        variable: `${p}helm_values`,
        severity: 'error',
        rule: 'never-issues',
        message: `${p}helm_values sets certManager to ${managerNamespace ?? 'cert-manager'}/${managerAccount ?? 'cert-manager'}: the chart lets only that service account call the webhook, and cert-manager's own is ${crn}/cert-manager, so cert-manager is forbidden to solve through it.`,
        advice: `Remove certManager from ${p}helm_values.`,
      });
    }
    if (chart && !isUnknownValue(release.name)) {
      const fullname = chartFullname(release.name, chart.chart, values);
      const binding = objects.find(
        (o) => o.object.kind === 'RoleBinding' && o.object.metadata.namespace === release.namespace,
      )?.object;
      const subject = rec(first(binding?.subjects));
      const account = text(subject.name);
      if (binding && account !== undefined && account !== fullname) {
        out.push(
          chart.readsSecrets
            ? {
                variable: `${p}service_account_name`,
                severity: 'info',
                rule: 'webhook-account',
                message: `The role's RoleBinding names the service account "${account}", but the ${chart.version} runs the webhook as "${fullname}" (its fullname for release "${release.name}"): that RoleBinding grants nothing. The chart's own ClusterRole lets the webhook read Secrets, so it still works.`,
                advice: `Set ${p}service_account_name: ${fullname} to make the Role the one that counts.`,
              }
            : {
                variable: `${p}service_account_name`,
                severity: 'error',
                rule: 'never-issues',
                message: `The role's RoleBinding names the service account "${account}", but the ${chart.version} runs the webhook as "${fullname}" (its fullname for release "${release.name}"), and the chart grants it no access to Secrets: the webhook cannot read its credentials, and every challenge fails.`,
                advice: `Set ${p}service_account_name: ${fullname} (or name the release so that it contains ${chart.chart}, and remove fullnameOverride and nameOverride from ${p}helm_values).`,
              },
        );
      }
    }
  }
  if (provider === 'godaddy') out.push(...godaddyConfig(config, credentials, context));
  else out.push(...infobloxConfig(config, credentials));
  void issuer;
  return out;
}

function godaddyConfig(config: Obj, credentials: KubeObject | undefined, context: IssuanceContext): RenderFinding[] {
  const out: RenderFinding[] = [];
  const p = 'cluster_issuer_acme_godaddy_';
  const version =
    context.conversion === 'native'
      ? 'ansible-core 2.19 and later keep it'
      : 'ansible-core up to 2.18 turns "True"/"False" into a boolean, 2.19 and later keep the text';
  if (config.production !== undefined && !isUnknownValue(config.production) && typeof config.production !== 'boolean') {
    out.push({
      variable: `${p}is_production`,
      severity: 'error',
      rule: 'never-issues',
      message: `config.production reaches the GoDaddy webhook as ${JSON.stringify(config.production)} (${version}), and the webhook decodes it as a boolean: every challenge fails with "json: cannot unmarshal ${typeof config.production === 'number' ? 'number' : 'string'} into Go struct field ... of type bool".`,
      advice: `Write ${p}is_production: true (or false) without quotes.`,
    });
  } else if (config.production === false) {
    out.push({
      variable: `${p}is_production`,
      severity: 'warning',
      rule: 'never-issues',
      message: `${p}is_production is false: the GoDaddy webhook writes the challenge records through GoDaddy's test environment (api.ote-godaddy.com), not into the real zone, so no publicly trusted certificate is issued.`,
      advice: `Remove ${p}is_production (the role's default is true) unless you test against GoDaddy's OTE environment.`,
    });
  }
  if (
    config.ttl !== undefined &&
    !isUnknownValue(config.ttl) &&
    !(typeof config.ttl === 'number' && Number.isInteger(config.ttl))
  ) {
    out.push({
      variable: `${p}ttl`,
      severity: 'error',
      rule: 'never-issues',
      message: `config.ttl reaches the GoDaddy webhook as ${JSON.stringify(config.ttl)}, and the webhook decodes it as a whole number: every challenge fails with "json: cannot unmarshal ${typeof config.ttl} into Go struct field ... of type int".`,
      advice: `Write ${p}ttl as a number without quotes, e.g. 600.`,
    });
  }
  const token = text(rec(credentials?.stringData).token);
  if (token !== undefined) {
    const parts = token.split(':');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') {
      out.push({
        variable: parts.length > 2 ? `${p}api_key` : parts[0] === '' ? `${p}api_key` : `${p}secret_key`,
        severity: 'error',
        rule: 'never-issues',
        message:
          parts.length > 2
            ? 'The GoDaddy API key or secret holds ":": the role writes the token as "<key>:<secret>" and the webhook splits it at every ":", so it sends a cut key or secret and GoDaddy refuses it.'
            : 'The GoDaddy API key or secret is empty: the role writes the token as "<key>:<secret>", and GoDaddy refuses a token with an empty part.',
        advice: `Set ${p}api_key and ${p}secret_key to the key and secret GoDaddy gave (neither holds ":").`,
      });
    }
  }
  return out;
}

function infobloxConfig(config: Obj, credentials: KubeObject | undefined): RenderFinding[] {
  const out: RenderFinding[] = [];
  const p = 'cluster_issuer_acme_infoblox_';
  const host = text(config.host);
  if (host && (/^[a-z]+:\/\//i.test(host) || host.includes('/'))) {
    out.push({
      variable: `${p}host`,
      severity: 'error',
      rule: 'never-issues',
      message: `${p}host is "${host}": the Infoblox webhook takes a host name and builds https://<host>:443/wapi/... itself, so a URL here never reaches the grid.`,
      advice: `Write the host name alone, e.g. ${p}host: ${host.replace(/^[a-z]+:\/\//i, '').replace(/[/:].*$/, '')}.`,
    });
  }
  const data = rec(credentials?.stringData);
  for (const key of ['username', 'password']) {
    if (data[key] === '' || data[key] === null) {
      out.push({
        variable: `${p}${key}`,
        severity: 'error',
        rule: 'never-issues',
        message: `The Infoblox ${key} is empty: the webhook reads it without complaint and signs in to the grid with empty credentials, which the grid refuses at every challenge.`,
        advice: `Set ${p}${key}.`,
      });
    }
  }
  return out;
}

function route53Findings(r: Obj, objects: RenderedObject[]): RenderFinding[] {
  const out: RenderFinding[] = [];
  const p = 'cluster_issuer_acme_route53_';
  if (isRecord(rec(r.auth).kubernetes) && !text(r.role)) {
    out.push({
      variable: `${p}role_arn`,
      severity: 'error',
      rule: 'never-issues',
      message: `${p}role_arn is not set: cert-manager accepts keyless credentials (auth kubernetes) without a role (v1.15.5 and v1.21.1), but fails at every challenge with "role must be set when web identity token is set".`,
      advice: `Set ${p}role_arn to the role created for the cluster's OIDC provider ("cloudgate oidc" prints it).`,
    });
  }
  if (r.secretAccessKeySecretRef !== undefined && r.accessKeyID === '') {
    out.push({
      variable: `${p}access_key_id`,
      severity: 'error',
      rule: 'never-issues',
      message: `The static credentials have a secret access key but no access key id (${p}access_key_id is unset or empty, and the role passes ""): cert-manager fails at every challenge with "only one of access and secret key was provided".`,
      advice: `Set ${p}access_key_id.`,
    });
  }
  if (r.hostedZoneID === '') {
    out.push({
      variable: `${p}hosted_zone_id`,
      severity: 'info',
      rule: 'solve-time',
      message: `${p}hosted_zone_id is empty: cert-manager accepts it and looks the zone up by name at each challenge (route53:ListHostedZonesByName), so the credentials need that permission too.`,
      advice: `Set ${p}hosted_zone_id to skip the lookup, or grant route53:ListHostedZonesByName.`,
    });
  }
  void objects;
  return out;
}

function rfc2136Findings(r: Obj, objects: RenderedObject[]): RenderFinding[] {
  const out: RenderFinding[] = [];
  const p = 'cluster_issuer_acme_rfc2136_';
  const nameserver = text(r.nameserver);
  const valid = nameserver ? validNameserver(nameserver) : undefined;
  if (nameserver && valid && valid !== nameserver.trim()) {
    const port = /:([^:\]]*)$/.exec(valid)?.[1] ?? '';
    out.push(
      /^\d+$/.test(port) && Number(port) <= 65535
        ? {
            variable: `${p}nameserver`,
            severity: 'info',
            rule: 'solve-time',
            message: `${p}nameserver is "${nameserver}": cert-manager accepts it and sends its updates to ${valid} (it adds port 53 when none is written).`,
          }
        : {
            variable: `${p}nameserver`,
            severity: 'error',
            rule: 'never-issues',
            message: `${p}nameserver is "${nameserver}": cert-manager accepts it, but the port "${port}" is no port number, so every update fails when it dials ${valid}.`,
            advice: 'Write host:port with a port number, e.g. ns1.example.com:53.',
          },
    );
  } else if (nameserver && valid) {
    const port = /:([^:\]]*)$/.exec(valid)?.[1] ?? '';
    if (!/^\d+$/.test(port) || Number(port) > 65535) {
      out.push({
        variable: `${p}nameserver`,
        severity: 'error',
        rule: 'never-issues',
        message: `${p}nameserver is "${nameserver}": cert-manager accepts it, but the port "${port}" is no port number, so every update fails when it dials it.`,
        advice: 'Write host:port with a port number, e.g. ns1.example.com:53.',
      });
    }
  }
  if (r.tsigAlgorithm === '') {
    out.push({
      variable: `${p}tsig_algorithm`,
      severity: 'info',
      rule: 'solve-time',
      message: `${p}tsig_algorithm is empty: cert-manager accepts it and signs its updates with HMACMD5; the key on the name server must be an HMAC-MD5 key.`,
      advice: `Set ${p}tsig_algorithm to the key's algorithm (tsig-keygen makes HMACSHA256 keys).`,
    });
  }
  const secretName = text(rec(r.tsigSecretSecretRef).name);
  const secretObject = objects.find((o) => o.object.kind === 'Secret' && o.object.metadata.name === secretName)?.object;
  const key = rec(secretObject?.stringData)['tsig-secret-key'];
  if (key === '' || key === null) {
    out.push({
      variable: `${p}tsig_secret_key`,
      severity: 'error',
      rule: 'never-issues',
      message: `${p}tsig_secret_key is empty: cert-manager then sends its updates unsigned (it signs only with a secret), and the name server refuses them.`,
      advice: `Set ${p}tsig_secret_key to the key's base64 secret.`,
    });
  }
  return out;
}

/** An empty credential in a Secret the issuer reads: accepted everywhere, refused by the provider at each challenge. */
function emptyCredentials(objects: RenderedObject[]): RenderFinding[] {
  const WATCHED: Record<string, string> = {
    'client-secret': 'cluster_issuer_acme_azuredns_client_secret',
    'api-token': 'cluster_issuer_acme_cloudflare_api_token',
    'secret-access-key': 'cluster_issuer_acme_route53_secret_access_key',
    'access-token': 'cluster_issuer_venafi_access_token',
  };
  const out: RenderFinding[] = [];
  for (const { object } of objects) {
    if (object.kind !== 'Secret') continue;
    for (const [key, value] of Object.entries(rec(object.stringData))) {
      if (WATCHED[key] && (value === '' || value === null)) {
        out.push({
          variable: WATCHED[key],
          severity: 'error',
          rule: 'never-issues',
          message: `${WATCHED[key]} is ${value === null ? 'null' : 'empty'}: the Secret is created with an empty ${key}, which the provider refuses at every challenge.`,
          advice: `Set ${WATCHED[key]}.`,
        });
      }
    }
  }
  return out;
}
