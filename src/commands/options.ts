/**
 * The typed settings core takes, from the commands' typed flags: the one place a flag becomes a
 * setting (a path resolved against the folder, a repeated or comma-separated flag a list, a flag
 * that feeds the settings chain a GivenSettings entry).
 */
import { resolve } from 'node:path';
import { camelCase, type FlagsOf } from '../cli-flags.js';
import { COMMAND_OPTIONS, type CommandName } from '../cli-options.js';
import { SETTING_SPECS } from '../core/config/setting-specs/index.js';
import type { Group } from '../core/areas/groups.js';
import { DEFAULT_INVENTORY } from '../core/config/paths.js';
import type { NetworkOptions } from '../core/config/network.js';
import type { GivenSettings } from '../core/config/settings.js';
import { doctorOptions, type DoctorOptions } from '../core/doctor/input.js';
import type { VaultOptions } from '../core/inventory/vault-options.js';

type NetworkFlags = Pick<FlagsOf<'doctor'>, 'timeout' | 'caFile' | 'insecure' | 'allowHttp' | 'verbose'>;
type VaultFlags = Pick<FlagsOf<'doctor'>, 'vaultPasswordFile' | 'vaultId'>;

export const networkOptionsOf = (flags: NetworkFlags): NetworkOptions => ({
  timeout: flags.timeout,
  caFile: flags.caFile,
  insecure: flags.insecure,
  allowHttp: flags.allowHttp,
  verbose: flags.verbose,
});

export const vaultOptionsOf = (flags: VaultFlags): VaultOptions => ({
  passwordFiles: flags.vaultPasswordFile,
  ids: flags.vaultId,
});

/** `--inventory`, resolved; the default inventory when absent. */
export function inventoryOf(
  flags: { inventory?: string },
  cwd: string,
): { inventoryPath: string; inventoryExplicit: boolean } {
  return {
    inventoryPath: resolve(cwd, flags.inventory ?? DEFAULT_INVENTORY),
    inventoryExplicit: flags.inventory !== undefined,
  };
}

/**
 * The settings the command line gave, through each setting's declared flag (setting-specs/): a new
 * setting with a flag needs no line here. A flag the command does not have gives nothing; an on/off
 * flag that is on gives `true`; a repeated flag, its list.
 */
export function givenOf(command: CommandName, flags: object): GivenSettings {
  const table = COMMAND_OPTIONS[command];
  const values = new Map(Object.entries(flags));
  const given: Record<string, string | readonly string[]> = {};
  for (const spec of SETTING_SPECS) {
    if (!spec.flag || !table.flags.some((f) => f.name === spec.flag)) continue;
    const value: unknown = values.get(camelCase(spec.flag));
    if (value === true) given[spec.name] = 'true';
    else if (typeof value === 'string') given[spec.name] = value;
    else if (Array.isArray(value) && value.length > 0)
      given[spec.name] = value.filter((v): v is string => typeof v === 'string');
  }
  return given;
}

/** `--only a,b`: groups the parser checked against the options table. */
export const onlyOf = (flags: { only: readonly Group[] }): Group[] => [...flags.only];

/** doctor's and serve's flags as the doctor's options. */
export function doctorOptionsOf(
  flags: FlagsOf<'doctor'> | FlagsOf<'serve'>,
  cwd: string,
  command: 'doctor' | 'serve' = 'doctor',
): DoctorOptions {
  const { inventoryPath, inventoryExplicit } = inventoryOf(flags, cwd);
  return doctorOptions(inventoryPath, {
    inventoryExplicit,
    configPath: flags.config,
    cloud: flags.cloud,
    given: givenOf(command, flags),
    network: networkOptionsOf(flags),
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
    given: givenOf('oidc', flags),
    network: networkOptionsOf(flags),
  });
}
