/**
 * Settings of the discovery and cluster checks and of `cloudgate oidc`: flag, then CLOUDGATE_<NAME>,
 * then the `discovery:` section of --config, then the inventory, then the platform's defaults.
 */
import { choicesOf, defaultName, usesKeylessDns, type NamingProfile } from './variables.js';
import { always, notApplicable, type Gate } from '../doctor/gates.js';
import { setting, type SettingsSource } from './settings.js';
import { inventoryView } from '../inventory/inventory.js';
import { CERT_MANAGER_NAMESPACE } from '../kube/platform.js';
import { IN_CLUSTER_AUDIENCE } from '../kube/service-account-issuer.js';

/** The audience the DNS provider's token service expects in a service-account token. */
export const DEFAULT_STS_AUDIENCE = 'sts.amazonaws.com';

/** The variable naming the service account of keyless route53 (auth kubernetes). */
export const KEYLESS_SERVICE_ACCOUNT = 'cluster_issuer_acme_route53_service_account_name';

export interface DiscoverySettings {
  issuerUrl?: string;
  tokenFile?: string;
  stsAudience: string;
  inClusterAudience: string;
  namespace: string;
  serviceAccount: string;
  /** The words the deployment reads (the default service account follows them). */
  names: NamingProfile;
  /** The inventory selects solver route53 with auth kubernetes. */
  keylessSelected: boolean;
  /** What the inventory selects instead, in words: `acme, route53 with auth static`. */
  selection: string;
  roleArn?: string;
}

type SettingsInput = SettingsSource & { inventoryPath: string; inventoryExplicit: boolean; names?: string };

export async function discoverySettings(input: SettingsInput): Promise<DiscoverySettings> {
  const { meant: inventory, profile } = await inventoryView(input);
  const get = (name: string) => setting(input, 'discovery', name);
  const inventoryString = (name: string) => {
    const v = inventory[name];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  return {
    issuerUrl: get('issuer_url'),
    tokenFile: get('token_file'),
    stsAudience: get('sts_audience') ?? get('audience') ?? DEFAULT_STS_AUDIENCE,
    inClusterAudience: get('in_cluster_audience') ?? IN_CLUSTER_AUDIENCE,
    namespace: get('namespace') ?? CERT_MANAGER_NAMESPACE,
    serviceAccount:
      get('service_account') ??
      inventoryString(KEYLESS_SERVICE_ACCOUNT) ??
      // The role's default (its neutral alias with --names spec).
      defaultName(KEYLESS_SERVICE_ACCOUNT, profile)!,
    names: profile,
    keylessSelected: usesKeylessDns(inventory),
    selection: selectionOf(inventory),
    roleArn: inventoryString('cluster_issuer_acme_route53_role_arn'),
  };
}

function selectionOf(values: Record<string, unknown>): string {
  const { issuer, solver, auth } = choicesOf(values);
  if (issuer !== 'acme') return `issuer ${issuer}`;
  return solver === 'route53' ? `acme, route53 with auth ${auth}` : `acme, solver ${solver}`;
}

/**
 * The one rule of the checks that only keyless route53 (auth `kubernetes`) needs, as a gate for every
 * group that has them (discovery, kube): open when the inventory selects it, or, for the cluster's
 * side of it (`issuerUrl`), when an issuer URL was given to check. The role assumption needs the
 * inventory's role and zone: it is open only when the inventory selects keyless route53.
 */
export function keylessGate(
  s: Pick<DiscoverySettings, 'keylessSelected' | 'issuerUrl' | 'selection'>,
  uses: 'inventory' | 'inventory or issuer URL',
): Gate {
  if (s.keylessSelected) return always;
  if (uses === 'inventory or issuer URL' && s.issuerUrl !== undefined) return always;
  const given = uses === 'inventory or issuer URL' ? ' and no --issuer-url was given' : '';
  return notApplicable(`Only needed for route53 auth kubernetes: the inventory selects ${s.selection}${given}.`);
}

/** `arn:aws:iam::123456789012:role/path/name` → its parts. */
export function parseRoleArn(arn: string): { partition: string; account: string; roleName: string } | undefined {
  const m = /^arn:([a-z-]+):iam::(\d{12}):role\/(?:[\w+=,.@/-]*\/)?([\w+=,.@-]{1,64})$/.exec(arn.trim());
  return m ? { partition: m[1], account: m[2], roleName: m[3] } : undefined;
}
