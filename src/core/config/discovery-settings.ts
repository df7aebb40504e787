/**
 * Settings of the discovery and cluster checks and of `cloudgate oidc`: flag, then CLOUDGATE_<NAME>,
 * then the `discovery:` section of --config, then the inventory, then the platform's defaults.
 */
import { usesKeylessDns } from './variables.js';
import { setting, type SettingsSource } from './settings.js';
import { inventoryView } from '../inventory/inventory.js';
import { objectNames, type NamingProfile } from '../render/names.js';
import { CERT_MANAGER_NAMESPACE } from '../kube/platform.js';
import { IN_CLUSTER_AUDIENCE } from '../kube/service-account-issuer.js';

/** The audience the DNS provider's token service expects in a service-account token. */
export const DEFAULT_STS_AUDIENCE = 'sts.amazonaws.com';

export interface DiscoverySettings {
  issuerUrl?: string;
  tokenFile?: string;
  stsAudience: string;
  inClusterAudience: string;
  namespace: string;
  serviceAccount: string;
  /** The variable names the inventory uses (the default service account follows them). */
  names: NamingProfile;
  /** The inventory selects solver clouddnsb with auth clusteroidc. */
  clusteroidcSelected: boolean;
  roleArn?: string;
}

type SettingsInput = SettingsSource & { inventoryPath: string; inventoryExplicit: boolean; names?: string };

export async function discoverySettings(input: SettingsInput): Promise<DiscoverySettings> {
  const { values: inventory, profile } = await inventoryView(input);
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
    serviceAccount: get('service_account') ?? inventoryString('cluster_issuer_acme_clouddnsb_service_account_name')
      // The platform's default: certmgr-clouddnsb in the neutral names, cert-manager-route53 in its own.
      ?? objectNames(profile).clouddnsbServiceAccount,
    names: profile,
    clusteroidcSelected: usesKeylessDns(inventory),
    roleArn: inventoryString('cluster_issuer_acme_clouddnsb_role_arn'),
  };
}

/** `arn:aws:iam::123456789012:role/path/name` → its parts. */
export function parseRoleArn(arn: string): { partition: string; account: string; roleName: string } | undefined {
  const m = /^arn:([a-z-]+):iam::(\d{12}):role\/(?:[\w+=,.@/-]*\/)?([\w+=,.@-]{1,64})$/.exec(arn.trim());
  return m ? { partition: m[1], account: m[2], roleName: m[3] } : undefined;
}
