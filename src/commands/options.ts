/**
 * The typed settings core takes, from the commands' typed flags: the one place a flag becomes a
 * setting (a path resolved against the folder, a repeated or comma-separated flag a list, a flag
 * that feeds the settings chain a GivenSettings entry).
 */
import { resolve } from 'node:path';
import type { FlagsOf } from '../cli-flags.js';
import type { Group } from '../core/areas/groups.js';
import { DEFAULT_INVENTORY } from '../core/config/paths.js';
import type { NetworkOptions } from '../core/config/network.js';
import type { GivenSettings } from '../core/config/settings.js';
import { doctorOptions, type DoctorOptions } from '../core/doctor/input.js';
import type { VaultOptions } from '../core/inventory/vault-options.js';

type NetworkFlags = Pick<FlagsOf<'doctor'>, 'timeout' | 'caFile' | 'insecure' | 'allowHttp' | 'verbose'>;
type VaultFlags = Pick<FlagsOf<'doctor'>, 'vaultPasswordFile' | 'vaultId'>;

export const networkOptionsOf = (flags: NetworkFlags): NetworkOptions =>
  ({ timeout: flags.timeout, caFile: flags.caFile, insecure: flags.insecure, allowHttp: flags.allowHttp, verbose: flags.verbose });

export const vaultOptionsOf = (flags: VaultFlags): VaultOptions => ({ passwordFiles: flags.vaultPasswordFile, ids: flags.vaultId });

/** `--inventory`, resolved; the default inventory when absent. */
export function inventoryOf(flags: { inventory?: string }, cwd: string): { inventoryPath: string; inventoryExplicit: boolean } {
  return { inventoryPath: resolve(cwd, flags.inventory ?? DEFAULT_INVENTORY), inventoryExplicit: flags.inventory !== undefined };
}

/** Drops the settings no flag gave: an absent key and an undefined one read the same, but print cleaner. */
function given(settings: GivenSettings): GivenSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

/** `--only a,b`: groups the parser checked against the options table. */
export const onlyOf = (flags: { only: readonly Group[] }): Group[] => [...flags.only];

/** doctor's and serve's flags as the doctor's options. */
export function doctorOptionsOf(flags: FlagsOf<'doctor'> | FlagsOf<'serve'>, cwd: string): DoctorOptions {
  const { inventoryPath, inventoryExplicit } = inventoryOf(flags, cwd);
  return doctorOptions(inventoryPath, {
    inventoryExplicit,
    configPath: flags.config,
    cloud: flags.cloud,
    given: given({
      issuer_url: flags.issuerUrl,
      token_file: flags.tokenFile,
      sts_audience: flags.audience,
      project: flags.project,
      context: flags.context,
    }),
    network: networkOptionsOf(flags),
    certificate: { files: flags.certificate, key: flags.key, domain: flags.domain },
    probeUpdate: 'probeUpdate' in flags ? flags.probeUpdate : false,
    endpoints: flags.endpoint,
    names: 'names' in flags ? flags.names : undefined,
    vault: vaultOptionsOf(flags),
  });
}

/** `cloudgate oidc`'s flags as the doctor's options its settings are read through. */
export function oidcDoctorOptionsOf(flags: FlagsOf<'oidc'>, cwd: string): DoctorOptions {
  const { inventoryPath, inventoryExplicit } = inventoryOf(flags, cwd);
  return doctorOptions(inventoryPath, {
    inventoryExplicit,
    configPath: flags.config,
    given: given({
      issuer_url: flags.issuerUrl,
      sts_audience: flags.audience,
      namespace: flags.namespace,
      service_account: flags.serviceAccount,
    }),
    network: networkOptionsOf(flags),
  });
}
