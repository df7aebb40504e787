/**
 * The settings of Ansible's own configuration that change how an inventory is read: found as Ansible
 * finds its ansible.cfg (`ANSIBLE_CONFIG`, a file or a folder holding one; `./ansible.cfg`, unless the
 * current folder is writable by anyone, which Ansible then ignores; `~/.ansible.cfg`;
 * `/etc/ansible/ansible.cfg`: the first that exists), each key overridden by its environment variable.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readRegularFileIfExistsSync } from '../safe-read.js';

const info = (path: string) => statSync(path, { throwIfNoEntry: false });

/** The ansible.cfg Ansible reads from `cwd`, or undefined when there is none. */
export function ansibleConfigFile(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const candidates: string[] = [];
  if (env.ANSIBLE_CONFIG) {
    const named = resolve(cwd, expandHome(env.ANSIBLE_CONFIG, env));
    candidates.push(info(named)?.isDirectory() ? join(named, 'ansible.cfg') : named);
  }
  if (((info(cwd)?.mode ?? 0) & 0o002) === 0) candidates.push(join(cwd, 'ansible.cfg'));
  candidates.push(join(env.HOME || homedir(), '.ansible.cfg'), '/etc/ansible/ansible.cfg');
  return candidates.find((path) => info(path)?.isFile());
}

/**
 * `[section] key` of an ansible.cfg text (INI: `key = value` or `key: value`; `#` and `;` start a comment
 * line, but only `;` an inline one, as Ansible's parser reads it: `inventory = hosts # x` is `hosts # x`).
 */
export function configValue(text: string, section: string, key: string): string | undefined {
  let current = '';
  let found: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      current = header[1].trim();
      continue;
    }
    const option = /^([A-Za-z_][\w-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (current === section && option?.[1] === key) found = option[2].replace(/\s+;.*$/, '').trim();
  }
  return found;
}

/** A setting as Ansible resolves it: its environment variable, else its ansible.cfg key; `base` is where a relative path of the file starts. */
export interface AnsibleSetting {
  value: string;
  /** `ANSIBLE_VAULT_PASSWORD_FILE` or `ansible.cfg /path/ansible.cfg`. */
  source: string;
  /** The folder a relative path in it is relative to. */
  base: string;
  /** The ansible.cfg it came from, when it did not come from the environment. */
  file?: string;
}

export function ansibleSetting(
  env: NodeJS.ProcessEnv,
  cwd: string,
  name: string,
  key: string,
): AnsibleSetting | undefined {
  const fromEnv = env[name];
  if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: name, base: cwd };
  const file = ansibleConfigFile(env, cwd);
  if (!file) return undefined;
  let text: string | undefined;
  try {
    text = readRegularFileIfExistsSync(file, { what: 'ansible.cfg' })?.text;
  } catch {
    return undefined; // Ansible would say why; cloudgate only reads settings here
  }
  const value = text === undefined ? undefined : configValue(text, 'defaults', key);
  return value ? { value, source: `${key} in ${file}`, base: dirname(file), file } : undefined;
}

/** `~` and `~/...` as the home folder, as Ansible expands a path setting. */
export function expandHome(path: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path;
}
