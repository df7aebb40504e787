/**
 * What a setting is, declared once per area (setting-specs/): its name, type, default, the environment
 * variables and flag that give it, its `--config` section, whether clouds.yaml or the saved settings
 * (`cloudgate config set`) may give it, and one line of documentation. One resolver reads every setting
 * from every source in one order and says where the value came from; the settings page of the docs is
 * generated from the same declarations.
 */
import { resolve } from 'node:path';
import { readOwnedFileSync } from '../safe-read.js';
import { registerSecret } from '../secrets.js';
import { asRecord, textOf } from '../records.js';
import { UsageError } from '../errors.js';
import type { CloudSettings } from './clouds-yaml.js';

/** `switch`: on when given as `true` (a flag without a value, `CLOUDGATE_<NAME>=true`, `name: true`). */
export type SettingType = 'text' | 'url' | 'path' | 'secret' | 'choice' | 'switch';

export interface SettingSpec {
  /** As in the `--config` section, `CLOUDGATE_<NAME>` and `cloudgate config set NAME`. */
  readonly name: string;
  readonly type: SettingType;
  /** The `--config` section that holds it; none for the settings of the whole tool (inventory, cloud ...). */
  readonly section?: string;
  /** Older sections it is still read from (`discovery:` for the kube context). */
  readonly oldSections?: readonly string[];
  /** Environment variables after `CLOUDGATE_<NAME>`, in order. */
  readonly env?: readonly string[];
  /** The command-line flag that gives it (`--ca-file`). */
  readonly flag?: string;
  /** The clouds.yaml entry named by --cloud/OS_CLOUD may give it. */
  readonly clouds?: boolean;
  /** `cloudgate config set` may keep it for every run. */
  readonly saved?: boolean;
  readonly default?: string;
  readonly choices?: readonly string[];
  /** A list: a repeated flag, a YAML list in the section, comma-separated in the environment. */
  readonly list?: boolean;
  /** A list whose every source adds its items (flags, environment, --config), rather than the first source winning. */
  readonly merge?: boolean;
  /** One line: what it is. */
  readonly doc: string;
}

/** Settings of one `--config` section, declared without repeating the section on each. */
export function inSection(section: string, specs: readonly Omit<SettingSpec, 'section'>[]): SettingSpec[] {
  return specs.map((spec) => ({ ...spec, section }));
}

export type OriginKind = 'flag' | 'environment' | 'clouds.yaml' | 'config file' | 'saved settings' | 'default';

/** Where a value came from: the kind of source and, where it helps, which (`OS_CACERT`, `auth.project_name`). */
export interface Origin {
  kind: OriginKind;
  where?: string;
}

export interface Resolved {
  value?: string;
  origin?: Origin;
}

/** The settings a command line gave, by setting name (`--issuer-url` is `issuer_url`): a list for a list setting. */
export type Given = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Every source a setting may come from, first to last. */
export interface SettingSources {
  given: Given;
  env: NodeJS.ProcessEnv;
  /** Parsed `--config` YAML (sections `signin:`, `discovery:`, ...), `{}` without one. */
  config: Record<string, unknown>;
  cwd: string;
  /** The clouds.yaml entry named by --cloud or OS_CLOUD. */
  cloud?: CloudSettings;
  /** `cloudgate config set`'s file, read. */
  saved?: { file: string; values: Readonly<Record<string, string>> };
}

const present = (v: unknown): v is string | number | boolean => v !== undefined && v !== null && v !== '';

/** `CLOUDGATE_<NAME>`, then the OpenStack client's or Ansible's own names the setting lists. */
export const envNamesOf = (spec: Pick<SettingSpec, 'name' | 'env'>): string[] => [
  `CLOUDGATE_${spec.name.toUpperCase()}`,
  ...(spec.env ?? []),
];

/**
 * One setting from its sources, in this order: the flag (never for a secret), the environment, the
 * clouds.yaml entry, the `--config` section, for a secret a file named by `CLOUDGATE_<NAME>_FILE` or
 * `<name>_file`, the saved settings, the default. A secret is registered for redaction before it is
 * returned; `read` false gives the origin without reading a secret's file.
 */
export function resolveSetting(
  spec: SettingSpec,
  sources: SettingSources,
  { read = true }: { read?: boolean } = {},
): Resolved {
  const secret = spec.type === 'secret';
  const done = (value: string | undefined, origin: Origin): Resolved => {
    if (secret) registerSecret(value);
    return { value, origin };
  };
  const given = secret ? undefined : sources.given[spec.name];
  const flag = typeof given === 'string' || given === undefined ? given : given.at(-1);
  if (present(flag)) return done(flag, { kind: 'flag', ...(spec.flag ? { where: `--${spec.flag}` } : {}) });
  for (const name of envNamesOf(spec)) {
    const v = sources.env[name];
    if (present(v)) return done(v, { kind: 'environment', where: name });
  }
  if (spec.clouds && sources.cloud) {
    const v = sources.cloud.values[spec.name];
    if (present(v)) return done(v, { kind: 'clouds.yaml', where: sources.cloud.keys[spec.name] });
  }
  const sections = spec.section ? [spec.section, ...(spec.oldSections ?? [])] : [];
  for (const section of sections) {
    const v = asRecord(sources.config[section])?.[spec.name];
    if (present(v)) return done(String(v), { kind: 'config file', where: `${section}.${spec.name}` });
  }
  if (secret) {
    const fileVar = `CLOUDGATE_${spec.name.toUpperCase()}_FILE`;
    const fromEnv = sources.env[fileVar];
    const fromConfig = spec.section ? textOf(asRecord(sources.config[spec.section])?.[`${spec.name}_file`]) : undefined;
    const file = present(fromEnv) ? fromEnv : fromConfig;
    if (file) {
      const origin: Origin = present(fromEnv)
        ? { kind: 'environment', where: fileVar }
        : { kind: 'config file', where: `${spec.section}.${spec.name}_file` };
      if (!read) return { origin };
      return done(readOwnedFileSync(resolve(sources.cwd, file), { what: `${spec.name}_file` }).trim(), origin);
    }
  }
  if (spec.saved && sources.saved) {
    const v = sources.saved.values[spec.name];
    if (present(v)) return done(v, { kind: 'saved settings', where: sources.saved.file });
  }
  if (spec.default !== undefined) return { value: spec.default, origin: { kind: 'default' } };
  return {};
}

/** One item of a list setting, with where it came from (an --endpoint, an item of `tls.endpoints`). */
export interface ListItem {
  value: string;
  origin: Origin;
}

/**
 * A list setting: the flag's items, the environment's (comma-separated), the `--config` section's
 * (a YAML list, or one value), the default's. The first source that gives any wins, unless the spec
 * `merge`s its sources (each adds its items, in that order). A section value that is no list and no
 * text is a UsageError naming it.
 */
export function resolveList(spec: SettingSpec, sources: SettingSources): ListItem[] {
  const found: ListItem[][] = [];
  const given = sources.given[spec.name];
  const flagItems = (typeof given === 'string' ? [given] : (given ?? [])).filter((v) => v.trim() !== '');
  found.push(
    flagItems.map((value) => ({ value, origin: { kind: 'flag', ...(spec.flag ? { where: `--${spec.flag}` } : {}) } })),
  );
  for (const name of envNamesOf(spec)) {
    const v = sources.env[name];
    if (present(v))
      found.push(
        v
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
          .map((value) => ({ value, origin: { kind: 'environment', where: name } })),
      );
  }
  for (const section of spec.section ? [spec.section, ...(spec.oldSections ?? [])] : []) {
    const v = asRecord(sources.config[section])?.[spec.name];
    if (v === undefined || v === null) continue;
    const items: unknown[] = Array.isArray(v) ? v : [v];
    if (!items.every((item) => typeof item === 'string' || typeof item === 'number')) {
      throw new UsageError(
        `In the config file, ${section}.${spec.name} must be a list of ${spec.doc.replace(/ \(a list\)$/, '')}.`,
        `Example:\n${section}:\n  ${spec.name}: [first, second]`,
      );
    }
    found.push(
      items.map((item, i) => ({
        value: String(item),
        origin: { kind: 'config file', where: `${section}.${spec.name}${Array.isArray(v) ? `[${i}]` : ''}` },
      })),
    );
  }
  const lists = found.filter((items) => items.length > 0);
  if (spec.merge) return lists.flat();
  return lists[0] ?? (spec.default !== undefined ? [{ value: spec.default, origin: { kind: 'default' } }] : []);
}

/** An origin in words: `environment OS_CACERT`, `clouds.yaml auth.project_name`, `saved settings (~/.config/...)`. */
export function describeOrigin(origin: Origin): string {
  if (!origin.where) return origin.kind;
  if (origin.kind === 'saved settings') return `saved settings ${origin.where}`;
  if (origin.kind === 'flag') return origin.where;
  return `${origin.kind} ${origin.where}`;
}
