import { existsSync } from 'node:fs';
import {
  networkSettings,
  NO_NETWORK_OPTIONS,
  runDeadlineMs,
  type NetworkOptions,
  type NetworkSettings,
} from '../config/network.js';
import { expandHome } from '../config/clouds-yaml.js';
import { loadConfigFile, setting, type GivenSettings, type SettingsSource } from '../config/settings.js';
import { resolveSetting } from '../config/setting-schema.js';
import { SETTING_SPECS } from '../config/setting-specs/index.js';
import { resolveStart, startSettings, type FoundSetting, type StartName } from '../config/start-settings.js';
import { ansibleInventory } from '../config/ansible-cfg.js';
import { kubeContexts } from '../config/kubeconfig.js';
import type { VaultOptions } from '../inventory/vault-options.js';
import type { ConfigFinding } from '../config/config-keys.js';
import type { CommandContext } from '../run-context.js';
import type { RunOptions } from './runner.js';

/**
 * The doctor's settings, typed: built by the command (doctor, serve, oidc) from its flags, and by
 * setup for its discovery offer. Core reads these fields, never a flag by name.
 */
export interface DoctorOptions {
  /** Absolute; the default inventory when none was named. */
  inventoryPath: string;
  /** Whether the user named the inventory (a missing default is then not an error). */
  inventoryExplicit: boolean;
  configPath?: string;
  /** `--cloud`: the clouds.yaml entry (OS_CLOUD otherwise). */
  cloud?: string;
  /** The settings given on the command line, the first link of the settings chain. */
  given: GivenSettings;
  network: NetworkOptions;
  /** `--names`: the words the deployment reads, platform (the default) or spec. */
  names?: string;
  vault: VaultOptions;
}

/** A doctor run's options with nothing given but the inventory path. */
export function doctorOptions(inventoryPath: string, options: Partial<DoctorOptions> = {}): DoctorOptions {
  return {
    inventoryPath,
    inventoryExplicit: true,
    given: {},
    network: NO_NETWORK_OPTIONS,
    vault: { passwordFiles: [], ids: [] },
    ...options,
  };
}

/**
 * Everything a check provider may read: the settings' sources (each area reads its own settings through
 * the resolver: setting(), settingList()), where the inventory is, the network, the vault.
 */
export interface DoctorInput extends SettingsSource {
  configPath?: string;
  /** What is wrong with the --config file (reported by the `<group>.config` checks). */
  configFindings: ConfigFinding[];
  inventoryPath: string;
  /** Whether the user named the inventory with --inventory (a missing default is then not an error). */
  inventoryExplicit: boolean;
  network: NetworkSettings;
  names?: string;
  vault: VaultOptions;
  /** What the run took from somewhere other than a flag (saved settings, OS_CLOUD, ansible.cfg ...), for the report on stderr. */
  found?: FoundSetting[];
  /** Whether anything at all names something to check (an inventory, a cloud, a context, a setting of a group). */
  somethingToCheck?: boolean;
  /** The groups this run lists (every group when absent): a fact two groups could report goes to one. */
  groups?: readonly string[];
}

export type { FoundSetting } from '../config/start-settings.js';

// The area's shape lives in area.ts; the inventory area still imports it from here.
export { lazyArea, type Area, type CheckProvider } from './area.js';

/**
 * The doctor's input from its options, the environment and --config. `cloudgate setup` builds one
 * too, to run the discovery checks against the inventory it has just written.
 */
export async function doctorInput(
  options: DoctorOptions,
  ctx: Pick<CommandContext, 'env' | 'cwd' | 'stderr'>,
): Promise<DoctorInput> {
  const { env, cwd } = ctx;
  const { config, findings } = await loadConfigFile(options.configPath, cwd);
  const { saved, cloud, caFile, sources, found } = await startSettings(
    { cloud: options.cloud, caFile: options.network.caFile, given: options.given },
    env,
    cwd,
    config,
  );
  const general = (name: StartName) => resolveStart(name, sources, found);
  const network = networkSettings({ ...options.network, caFile }, { stderr: ctx.stderr, cloud });

  let { inventoryPath, inventoryExplicit } = options;
  if (!inventoryExplicit) {
    const named = general('inventory');
    const fromAnsible = named === undefined ? ansibleInventory(env, cwd) : undefined;
    if (named !== undefined) inventoryPath = expandHome(named, env, cwd);
    else if (fromAnsible) {
      inventoryPath = fromAnsible.path;
      found.push({ name: 'inventory', value: fromAnsible.path, from: fromAnsible.from });
    }
    inventoryExplicit = named !== undefined || fromAnsible !== undefined;
  }

  const context = general('context');
  // Anything that names something to check; the CA file alone does not (kubectl's current context: see withCurrentContext).
  const groupSetting = SETTING_SPECS.some(
    (s) =>
      s.section !== undefined &&
      s.name !== 'context' &&
      ['flag', 'environment', 'clouds.yaml', 'config file', 'saved settings'].includes(
        resolveSetting(s, sources, { read: false }).origin?.kind ?? '',
      ),
  );
  const somethingToCheck = Boolean(cloud || context || options.configPath || groupSetting || existsSync(inventoryPath));
  return {
    given: options.given,
    env,
    cwd,
    ...(cloud ? { cloud } : {}),
    ...(saved ? { saved } : {}),
    config,
    configFindings: findings,
    configPath: options.configPath,
    inventoryPath,
    inventoryExplicit,
    network,
    ...(options.names !== undefined ? { names: options.names } : {}),
    vault: options.vault,
    found,
    somethingToCheck,
  };
}

/**
 * kubectl's current context, when no context is named: the cluster checks use it, so a run that asks
 * the cluster has something to check, and its report says which context it is. Read only for such a run
 * (the kubeconfig is parsed for it).
 */
export async function withCurrentContext(input: DoctorInput): Promise<DoctorInput> {
  if (setting(input, 'kube', 'context') !== undefined) return input;
  const { current } = await kubeContexts(input.env);
  if (!current) return input;
  return {
    ...input,
    found: [
      ...(input.found ?? []),
      { name: 'context', value: current.name, from: `the current context of ${current.file}` },
    ],
    somethingToCheck: true,
  };
}

export function runOptionsOf(input: DoctorInput): RunOptions {
  return {
    network: input.network,
    timeoutMs: input.network.timeoutMs,
    deadlineMs: runDeadlineMs(input.network),
    log: input.network.verbose ? input.network.log : undefined,
  };
}
