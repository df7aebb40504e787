/**
 * Settings of the discovery and cluster checks and of `cloudgate oidc`: flag, then CLOUDGATE_<NAME>,
 * then the `discovery:` section of --config, then the inventory, then the platform's defaults.
 */
import { usesKeylessDns } from './variables.js';
import type { DoctorInput } from '../doctor/input.js';
import { setting } from './settings.js';
import { inventoryValues } from '../inventory/inventory.js';
import type { KubectlOptions } from '../kube/kubectl.js';
import { DEFAULT_CERTMGR_NAMESPACE, DEFAULT_SERVICE_ACCOUNT, DEFAULT_STS_AUDIENCE, IN_CLUSTER_AUDIENCE } from '../areas/discovery/issuer.js';

export interface DiscoverySettings {
  issuerUrl?: string;
  tokenFile?: string;
  stsAudience: string;
  inClusterAudience: string;
  namespace: string;
  serviceAccount: string;
  context?: string;
  /** The inventory selects solver clouddnsb with auth clusteroidc. */
  clusteroidcSelected: boolean;
  roleArn?: string;
}

type SettingsInput = Pick<DoctorInput, 'flags' | 'env' | 'config' | 'cwd' | 'inventoryPath' | 'inventoryExplicit'>;

export async function discoverySettings(input: SettingsInput): Promise<DiscoverySettings> {
  const inventory = await inventoryValues(input);
  const get = (name: string, options: { flag?: string } = {}) => setting(input, 'discovery', name, options);
  const inventoryString = (name: string) => {
    const v = inventory[name];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  return {
    issuerUrl: get('issuer_url'),
    tokenFile: get('token_file'),
    stsAudience: get('sts_audience', { flag: 'audience' }) ?? get('audience') ?? DEFAULT_STS_AUDIENCE,
    inClusterAudience: get('in_cluster_audience') ?? IN_CLUSTER_AUDIENCE,
    namespace: get('namespace') ?? DEFAULT_CERTMGR_NAMESPACE,
    serviceAccount: get('service_account') ?? inventoryString('cluster_issuer_acme_clouddnsb_service_account_name') ?? DEFAULT_SERVICE_ACCOUNT,
    context: get('context'),
    clusteroidcSelected: usesKeylessDns(inventory),
    roleArn: inventoryString('cluster_issuer_acme_clouddnsb_role_arn'),
  };
}

/** `arn:aws:iam::123456789012:role/path/name` → its parts. */
export function parseRoleArn(arn: string): { partition: string; account: string; roleName: string } | undefined {
  const m = /^arn:([a-z-]+):iam::(\d{12}):role\/(?:[\w+=,.@/-]*\/)?([\w+=,.@-]{1,64})$/.exec(arn.trim());
  return m ? { partition: m[1], account: m[2], roleName: m[3] } : undefined;
}

/**
 * How every cluster check runs kubectl: the context from the settings chain (--context,
 * CLOUDGATE_CONTEXT, `context:` in --config), the run's environment (KUBECONFIG), the run's timeout.
 */
export async function kubeOptionsFor(input: SettingsInput & Pick<DoctorInput, 'network'>): Promise<KubectlOptions> {
  return { context: (await discoverySettings(input)).context, env: input.env, timeoutMs: input.network.timeoutMs };
}
