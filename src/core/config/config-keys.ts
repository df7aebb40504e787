/**
 * What the --config file may hold, and what is wrong with it beyond its YAML: keys cloudgate does not
 * read (a misspelt `brokr_url` would otherwise be ignored without a word), and secret files that
 * others can read. Relative `*_file` paths are made absolute against the config file's folder, since
 * that is where the person who wrote them was looking.
 */
import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { closest, notOneOf } from '../closest.js';
import { asRecord } from '../records.js';
import { SETTING_SPECS } from './setting-specs/index.js';
import { VARIABLES, variableByAlias } from './variables.js';

/** Every key each section may hold, from the settings each area declares (a secret's `<name>_file` too). */
export const CONFIG_KEYS: Record<string, readonly string[]> = (() => {
  const keys: Record<string, string[]> = {};
  for (const spec of SETTING_SPECS) {
    for (const section of [spec.section, ...(spec.oldSections ?? [])]) {
      if (section) (keys[section] ??= []).push(spec.name, ...(spec.type === 'secret' ? [`${spec.name}_file`] : []));
    }
  }
  // The inventory's values the DNS-01 credential check may be given here instead (a vaulted or templated one).
  (keys.acme ??= []).push(...VARIABLES.flatMap((row) => [row.name, ...(row.secret ? [`${row.name}_file`] : [])]));
  return keys;
})();

/** The sections of the --config file: one per group that has settings. */
export const CONFIG_SECTIONS: readonly string[] = Object.keys(CONFIG_KEYS);

const SECRETS = SETTING_SPECS.filter((s) => s.type === 'secret').map((s) => s.name);
/** Keys whose value is a secret written inline in the config file. */
const INLINE_SECRETS = new Set(SECRETS);
/** Keys naming a file that holds a secret (a service-account token is one too). */
const SECRET_FILES = new Set([...SECRETS.map((name) => `${name}_file`), 'token_file']);
/** Keys naming files, resolved against the config file's folder (certificate: resolves its own). */
const PATH_KEYS = new Set([...SECRET_FILES]);

export interface ConfigFinding {
  /** The section the finding belongs to, or undefined for the file as a whole. */
  section?: string;
  key: string;
  message: string;
  advice: string;
}

/** A --config file read: its sections, and what is wrong with its keys and the permissions of its secrets. */
export interface LoadedConfig {
  config: Record<string, unknown>;
  findings: ConfigFinding[];
}

/**
 * Makes relative `*_file` paths absolute against the config file's folder (in place), and returns
 * the config with what is wrong with the file's keys and the permissions of its secrets.
 */
export function examineConfig(config: Record<string, unknown>, configFile: string): LoadedConfig {
  const found: ConfigFinding[] = [];
  const folder = dirname(configFile);
  let holdsSecret = false;
  for (const [sectionName, section] of Object.entries(config)) {
    const known = CONFIG_KEYS[sectionName];
    if (!known) {
      const guess = closest(sectionName, Object.keys(CONFIG_KEYS), { ignoreCase: true });
      found.push({
        section: guess,
        key: sectionName,
        ...notOneOfFinding(`${configFile}: section`, sectionName, Object.keys(CONFIG_KEYS), (g) => `"${g}:"`),
      });
      continue;
    }
    const values = asRecord(section);
    if (!values) continue;
    for (const [key, value] of Object.entries(values)) {
      const aliased = sectionName === 'acme' ? variableByAlias(key.replace(/_file$/, '')) : undefined;
      if (aliased) {
        const name = key.endsWith('_file') ? `${aliased.name}_file` : aliased.name;
        found.push({
          section: sectionName,
          key: `${sectionName}.${key}`,
          message: `${sectionName}.${key} in ${configFile} is the neutral alias of ${name}: it is read as ${name}.`,
          advice: `Rename it to ${name}, the platform's own name.`,
        });
        continue;
      }
      if (!known.includes(key)) {
        found.push({
          section: sectionName,
          key: `${sectionName}.${key}`,
          ...notOneOfFinding(`${configFile}: ${sectionName}:`, key, known, (g) => g),
        });
        continue;
      }
      if (INLINE_SECRETS.has(key) && value !== undefined && value !== null && value !== '') holdsSecret = true;
      if (PATH_KEYS.has(key) && typeof value === 'string' && value) {
        const path = isAbsolute(value) ? value : resolve(folder, value);
        values[key] = path;
        if (SECRET_FILES.has(key)) {
          const open = looseMode(path);
          if (open !== undefined) {
            found.push({
              section: sectionName,
              key: `${sectionName}.${key}`,
              message: `${sectionName}.${key} ${path} holds a secret and is readable by ${open}.`,
              advice: `Restrict it to its owner: chmod 600 ${path}.`,
            });
          }
        }
      }
    }
  }
  if (holdsSecret) {
    const open = looseMode(configFile);
    if (open !== undefined) {
      found.push({
        key: 'file',
        section: 'signin',
        message: `${configFile} holds a secret inline and is readable by ${open}.`,
        advice: `Restrict it to its owner (chmod 600 ${configFile}), or move the secret into a *_file of mode 0600.`,
      });
    }
  }
  return { config, findings: found };
}

/** The one wording of "not one of these" (core/closest.ts), as a finding: the key is ignored. */
function notOneOfFinding(
  what: string,
  given: string,
  choices: readonly string[],
  typed: (guess: string) => string,
): { message: string; advice: string } {
  const error = notOneOf(what, given, choices, { ignoreCase: true, typed });
  return {
    message: `${error.message.replace(/\.$/, '')}; it is ignored.`,
    advice: error.advice ?? `Give one of: ${choices.join(', ')}.`,
  };
}

/** "group and others" / "group" / "others" when the file's mode lets them read it; undefined otherwise. */
function looseMode(path: string): string | undefined {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return undefined; // Reading it reports the problem.
  }
  const group = (mode & 0o040) !== 0;
  const others = (mode & 0o004) !== 0;
  if (group && others) return `group and others (mode ${(mode & 0o777).toString(8).padStart(4, '0')})`;
  if (group || others) return `${group ? 'its group' : 'others'} (mode ${(mode & 0o777).toString(8).padStart(4, '0')})`;
  return undefined;
}
