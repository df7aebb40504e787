/**
 * Settings of the discovery and cluster checks and of `cloudgate oidc`: flag, then CLOUDGATE_<NAME>,
 * then the `discovery:` section of --config, then the inventory, then SPEC.md's defaults.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { setting, type DoctorInput } from '../doctor/input.js';
import { UsageError } from '../errors.js';
import { DEFAULT_CERTMGR_NAMESPACE, DEFAULT_SERVICE_ACCOUNT, DEFAULT_STS_AUDIENCE, IN_CLUSTER_AUDIENCE } from './issuer.js';

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

export function discoverySettings(input: SettingsInput): DiscoverySettings {
  const inventory = readInventoryValues(input.inventoryPath, input.inventoryExplicit);
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
    clusteroidcSelected:
      inventory.cluster_issuer_acme_solver === 'clouddnsb' && inventory.cluster_issuer_acme_clouddnsb_auth === 'clusteroidc',
    roleArn: inventoryString('cluster_issuer_acme_clouddnsb_role_arn'),
  };
}

/** The inventory as one flat mapping (a YAML file, or every YAML file under <folder>/group_vars). */
export function readInventoryValues(path: string, explicit: boolean): Record<string, unknown> {
  let files: string[];
  try {
    files = statSync(path).isDirectory() ? yamlFiles(join(path, 'group_vars')) : [path];
  } catch (error) {
    if (!explicit) return {};
    throw new UsageError(`Cannot read the inventory ${path}: ${(error as NodeJS.ErrnoException).code ?? error}.`, 'Give --inventory a YAML file or an inventory folder with group_vars/.');
  }
  const values: Record<string, unknown> = {};
  for (const file of files) {
    let doc: unknown;
    try {
      doc = parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`The inventory file ${file} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) Object.assign(values, doc);
  }
  return values;
}

function yamlFiles(dir: string): string[] {
  try {
    return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** `arn:aws:iam::123456789012:role/path/name` → its parts. */
export function parseRoleArn(arn: string): { partition: string; account: string; roleName: string } | undefined {
  const m = /^arn:([a-z-]+):iam::(\d{12}):role\/(?:[\w+=,.@/-]*\/)?([\w+=,.@-]{1,64})$/.exec(arn.trim());
  return m ? { partition: m[1], account: m[2], roleName: m[3] } : undefined;
}
