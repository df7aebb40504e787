/**
 * Which inventory variable the role writes into each field of the objects it renders: a refusal of a
 * field is reported on the variable to change. Paths are dotted, without list indices
 * (`spec.acme.solvers.dns01.rfc2136.nameserver`).
 */
import type { KubeObject } from './types.js';

const SOLVER_FIELDS: Record<string, string> = {
  'http01.ingress.class': 'cluster_issuer_acme_http01_ingress_class',
  'dns01.rfc2136.nameserver': 'cluster_issuer_acme_rfc2136_nameserver',
  'dns01.rfc2136.tsigAlgorithm': 'cluster_issuer_acme_rfc2136_tsig_algorithm',
  'dns01.rfc2136.tsigKeyName': 'cluster_issuer_acme_rfc2136_tsig_key_name',
  'dns01.rfc2136.tsigSecretSecretRef.name': 'cluster_issuer_acme_rfc2136_secret_name',
  'dns01.route53.region': 'cluster_issuer_acme_route53_region',
  'dns01.route53.hostedZoneID': 'cluster_issuer_acme_route53_hosted_zone_id',
  'dns01.route53.role': 'cluster_issuer_acme_route53_role_arn',
  'dns01.route53.accessKeyID': 'cluster_issuer_acme_route53_access_key_id',
  'dns01.route53.secretAccessKeySecretRef.name': 'cluster_issuer_acme_route53_secret_name',
  'dns01.route53.auth.kubernetes.serviceAccountRef.name': 'cluster_issuer_acme_route53_service_account_name',
  'dns01.azureDNS.clientID': 'cluster_issuer_acme_azuredns_client_id',
  'dns01.azureDNS.subscriptionID': 'cluster_issuer_acme_azuredns_subscription_id',
  'dns01.azureDNS.tenantID': 'cluster_issuer_acme_azuredns_tenant_id',
  'dns01.azureDNS.resourceGroupName': 'cluster_issuer_acme_azuredns_resourcegroup_name',
  'dns01.azureDNS.hostedZoneName': 'cluster_issuer_acme_azuredns_hostedzone_name',
  'dns01.azureDNS.environment': 'cluster_issuer_acme_azuredns_environment',
  'dns01.azureDNS.clientSecretSecretRef.name': 'cluster_issuer_acme_azuredns_secret_name',
  'dns01.cloudflare.email': 'cluster_issuer_acme_cloudflare_email',
  'dns01.cloudflare.apiTokenSecretRef.name': 'cluster_issuer_acme_cloudflare_secret_name',
};

const WEBHOOK_FIELDS: Record<string, string> = {
  groupName: 'group_name',
  'config.production': 'is_production',
  'config.ttl': 'ttl',
  'config.host': 'host',
  'config.view': 'view',
  'config.apiKeySecretRef.name': 'secret_name',
  'config.usernameSecretRef.name': 'secret_name',
  'config.passwordSecretRef.name': 'secret_name',
};

const ISSUER_FIELDS: Record<string, string> = {
  'metadata.name': 'cluster_issuer_name',
  'spec.acme.email': 'cluster_issuer_acme_email',
  'spec.acme.server': 'cluster_issuer_acme_server',
  'spec.acme.privateKeySecretRef.name': 'cluster_issuer_acme_private_key_secret_name',
  'spec.venafi.zone': 'cluster_issuer_venafi_zone',
  'spec.venafi.tpp.url': 'cluster_issuer_venafi_tpp_url',
  'spec.venafi.tpp.caBundle': 'cluster_issuer_venafi_tpp_ca_bundle',
  'spec.venafi.tpp.credentialsRef.name': 'cluster_issuer_venafi_secret_name',
};

/** A JSON pointer (`/spec/acme/solvers/0/dns01`) or a field path (`spec.acme.solvers[0].dns01`) as a dotted path without indices. */
export function dotted(path: string): string {
  return path
    .replace(/^\//, '')
    .replace(/\[\d+\]/g, '')
    .split(/[/.]/)
    .filter((p) => p !== '' && !/^\d+$/.test(p))
    .join('.');
}

/** The variable behind a field of an object the role renders, when one is. */
export function variableAt(object: KubeObject, path: string): string | undefined {
  const at = dotted(path);
  if (object.kind === 'ClusterIssuer') {
    if (ISSUER_FIELDS[at]) return ISSUER_FIELDS[at];
    if (at === 'spec.ca.secretName')
      return JSON.stringify(object.spec).includes('"ca"') ? 'cluster_issuer_ca_secret_name' : undefined;
    const solver = /^spec\.acme\.solvers\.(.*)$/.exec(at)?.[1];
    if (solver && SOLVER_FIELDS[solver]) return SOLVER_FIELDS[solver];
    const hook = solver && /^dns01\.webhook\.(.*)$/.exec(solver)?.[1];
    if (hook && WEBHOOK_FIELDS[hook]) return `cluster_issuer_acme_${webhookProvider(object)}_${WEBHOOK_FIELDS[hook]}`;
  }
  return undefined;
}

/** `godaddy` or `infoblox`, from the solver name the role writes. */
export function webhookProvider(object: KubeObject): string {
  return JSON.stringify(object.spec ?? {}).includes('"solverName":"godaddy"') ? 'godaddy' : 'infoblox';
}
