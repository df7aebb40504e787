import { resolve } from 'node:path';
import { DEFAULT_INVENTORY } from '../config/paths.js';
import { networkSettings, runDeadlineMs, type NetworkSettings } from '../config/network.js';
import { cloudOf } from '../config/clouds-yaml.js';
import { loadConfigFile, type SettingsSource } from '../config/settings.js';
import { str, type CommandContext } from '../run-context.js';
import type { RunOptions } from './runner.js';
import type { Check } from './types.js';

/** Everything a check provider may read: flags, environment, the --config file, the inventory path. */
export interface DoctorInput extends SettingsSource {
  configPath?: string;
  inventoryPath: string;
  /** Whether the user named the inventory with --inventory (a missing default is then not an error). */
  inventoryExplicit: boolean;
  network: NetworkSettings;
}

/** An area's contribution to the doctor: the checks of its groups (skip with reason when unconfigured). */
export type CheckProvider = (input: DoctorInput) => Check[] | Promise<Check[]>;

/** One doctor group: its name, the title its reports show, and its checks (loaded only when asked for). */
export interface Area {
  group: string;
  title: string;
  provideChecks: CheckProvider;
}

/** An area whose modules are imported only when its checks are asked for, their checks in this order. */
export function lazyArea(group: string, title: string, modules: (() => Promise<{ provideChecks: CheckProvider }>)[]): Area {
  return {
    group,
    title,
    async provideChecks(input) {
      const checks: Check[] = [];
      for (const load of modules) checks.push(...(await (await load()).provideChecks(input)));
      return checks;
    },
  };
}

/**
 * The doctor's input from its flags, environment and --config. `cloudgate setup` builds one too, to
 * run the discovery checks against the inventory it has just written.
 */
export function doctorInput(ctx: Pick<CommandContext, 'flags' | 'env' | 'cwd' | 'stderr'>): DoctorInput {
  const { flags, env, cwd } = ctx;
  const cloud = cloudOf(flags, env, cwd);
  const network = networkSettings({ ...ctx, cloud });
  const configPath = str(flags, 'config');
  return {
    flags,
    env,
    cwd,
    ...(cloud ? { cloud } : {}),
    config: loadConfigFile(configPath, cwd),
    configPath,
    inventoryPath: resolve(cwd, str(flags, 'inventory') ?? DEFAULT_INVENTORY),
    inventoryExplicit: str(flags, 'inventory') !== undefined,
    network,
  };
}

export function runOptionsOf(input: DoctorInput): RunOptions {
  return {
    timeoutMs: input.network.timeoutMs,
    deadlineMs: runDeadlineMs(input.network),
    log: input.network.verbose ? input.network.log : undefined,
  };
}
