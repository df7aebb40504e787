import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { registerSecret } from '../secrets.js';
import { loadYaml, refuseNotices } from '../yaml-load.js';
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

/** An area's contribution to the doctor: the checks of its groups (skip with reason when unconfigured). */
export type CheckProvider = (input: DoctorInput) => Check[] | Promise<Check[]>;

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
  refuseNotices(loaded.notices, { what: 'the config file', path });
  const doc = loaded.value;
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new UsageError(`The config file ${path} must be a YAML mapping with sections such as "signin:" and "discovery:".`);
  }
  return doc as Record<string, unknown>;
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
      try {
        value = readFileSync(resolve(input.cwd, String(file)), 'utf8').trim();
      } catch (error) {
        throw new UsageError(`Cannot read ${name}_file ${file}: ${(error as NodeJS.ErrnoException).code ?? error}.`);
      }
    }
  }
  if (options.secret) registerSecret(value);
  return value;
}
