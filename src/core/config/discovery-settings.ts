/**
 * Settings of the discovery and cluster checks and of `cloudgate oidc`: flag, then CLOUDGATE_<NAME>,
 * then the `discovery:` section of --config, then the inventory, then the platform's defaults.
 */
import { defaultName, usesKeylessDns, type NamingProfile } from './variables.js';
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
    serviceAccount: get('service_account') ?? inventoryString(KEYLESS_SERVICE_ACCOUNT)
      // The role's default (its neutral alias with --names spec).
      ?? defaultName(KEYLESS_SERVICE_ACCOUNT, profile)!,
    names: profile,
    keylessSelected: usesKeylessDns(inventory),
    roleArn: inventoryString('cluster_issuer_acme_route53_role_arn'),
  };
}

/** `arn:aws:iam::123456789012:role/path/name` → its parts. */
export function parseRoleArn(arn: string): { partition: string; account: string; roleName: string } | undefined {
  const m = /^arn:([a-z-]+):iam::(\d{12}):role\/(?:[\w+=,.@/-]*\/)?([\w+=,.@-]{1,64})$/.exec(arn.trim());
  return m ? { partition: m[1], account: m[2], roleName: m[3] } : undefined;
}
