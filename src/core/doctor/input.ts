import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_INVENTORY } from '../config/paths.js';
import { UsageError } from '../errors.js';
import { lineWriter } from '../net/http-log.js';
import { bool, str, type CommandContext } from '../run-context.js';
import type { RunOptions } from './runner.js';
import { examineConfig } from '../config/config-keys.js';
import { readRegularFileSync } from '../safe-read.js';
import { registerSecret } from '../secrets.js';
import { loadYaml, refuseNotices } from '../inventory/yaml-load.js';
import type { Check } from './types.js';

type Flags = Record<string, string | boolean | string[] | undefined>;

/** Everything a check provider may read: flags, environment, the --config file, the inventory path. */
export interface DoctorInput {
  flags: Flags;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Parsed `--config` YAML (sections `signin:`, `discovery:`, ...), `{}` without one. */
  config: Record<string, unknown>;
  configPath?: string;
  inventoryPath: string;
  /** Whether the user named the inventory with --inventory (a missing default is then not an error). */
  inventoryExplicit: boolean;
  network: NetworkSettings;
}

export interface NetworkSettings {
  timeoutMs: number;
  caFile?: string;
  insecure: boolean;
  allowHttp: boolean;
  verbose: boolean;
  log: (line: string) => void;
}

export const TIMEOUT_RANGE_S = { min: 0.1, max: 3600, default: 10 } as const;

/**
 * `--timeout SECONDS`, the one place it is read (doctor, token, and setup's checks): a plain decimal
 * number from 0.1 to 3600. Returned in milliseconds.
 */
export function parseTimeout(flags: Flags): number {
  const raw = flags.timeout;
  if (raw === undefined) return TIMEOUT_RANGE_S.default * 1000;
  const text = String(raw).trim();
  const seconds = /^(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : NaN;
  if (!(seconds >= TIMEOUT_RANGE_S.min && seconds <= TIMEOUT_RANGE_S.max)) {
    throw new UsageError(
      `--timeout must be a number of seconds from ${TIMEOUT_RANGE_S.min} to ${TIMEOUT_RANGE_S.max}, not "${text}".`,
      `Give the time one request or check may take, e.g. --timeout 10 (the default).`,
    );
  }
  return Math.round(seconds * 1000);
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

export function loadConfigFile(path: string | undefined, cwd: string): Record<string, unknown> {
  if (!path) return {};
  const full = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the config file ${path}: ${(error as NodeJS.ErrnoException).code ?? error}.`);
  }
  const loaded = loadYaml(text, { what: 'the config file', path, plain: true, advice: 'Fix the YAML syntax and run the command again.' });
  refuseNotices(loaded.notices, { what: 'the config file', path, plain: true });
  const doc = loaded.value;
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new UsageError(`The config file ${path} must be a YAML mapping with sections such as "signin:" and "discovery:".`);
  }
  return examineConfig(doc as Record<string, unknown>, full);
}

/**
 * Resolves one setting: flag (never for secrets), then CLOUDGATE_<NAME>, then the --config section.
 * A secret may also come from `<name>_file` in the config or CLOUDGATE_<NAME>_FILE; it is registered
 * for redaction before it is returned.
 */
export function setting(
  input: Pick<DoctorInput, 'flags' | 'env' | 'config' | 'cwd'>,
  section: string,
  name: string,
  options: { secret?: boolean; flag?: string; envNames?: string[] } = {},
): string | undefined {
  const fromFlag = options.secret ? undefined : input.flags[options.flag ?? name.replaceAll('_', '-')];
  const envNames = [`CLOUDGATE_${name.toUpperCase()}`, ...(options.envNames ?? [])];
  const sectionValues = (input.config[section] ?? {}) as Record<string, unknown>;
  let value: string | undefined =
    typeof fromFlag === 'string' ? fromFlag : envNames.map((n) => input.env[n]).find((v) => v !== undefined && v !== '');
  if (value === undefined) {
    const v = sectionValues[name];
    if (v !== undefined && v !== null && v !== '') value = String(v);
  }
  if (value === undefined && options.secret) {
    const file = input.env[`CLOUDGATE_${name.toUpperCase()}_FILE`] ?? (sectionValues[`${name}_file`] as string | undefined);
    if (file) {
      value = readRegularFileSync(resolve(input.cwd, String(file)), { what: `${name}_file` }).trim();
    }
  }
  if (options.secret) registerSecret(value);
  return value;
}

/**
 * The doctor's input from its flags, environment and --config. `cloudgate setup` builds one too, to
 * run the discovery checks against the inventory it has just written.
 */
export function doctorInput({ flags, env, cwd, stderr }: Pick<CommandContext, 'flags' | 'env' | 'cwd' | 'stderr'>): DoctorInput {
  const timeoutMs = parseTimeout(flags);
  const configPath = str(flags, 'config');
  return {
    flags,
    env,
    cwd,
    config: loadConfigFile(configPath, cwd),
    configPath,
    inventoryPath: resolve(cwd, str(flags, 'inventory') ?? DEFAULT_INVENTORY),
    inventoryExplicit: str(flags, 'inventory') !== undefined,
    network: {
      timeoutMs,
      caFile: str(flags, 'ca-file') ?? (env.OS_CACERT || undefined),
      insecure: bool(flags, 'insecure'),
      allowHttp: bool(flags, 'allow-http'),
      verbose: bool(flags, 'verbose'),
      log: lineWriter(stderr),
    },
  };
}


export function runOptionsOf(input: DoctorInput): RunOptions {
  return {
    timeoutMs: input.network.timeoutMs,
    deadlineMs: Math.max(60_000, input.network.timeoutMs * 6),
    log: input.network.verbose ? input.network.log : undefined,
  };
}
