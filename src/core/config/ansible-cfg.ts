/**
 * The inventory Ansible would use here, found as Ansible finds it: `ANSIBLE_INVENTORY`, else the
 * `inventory` of `[defaults]` in the first ansible.cfg of Ansible's own order (`ANSIBLE_CONFIG`, a file
 * or a folder holding one; `./ansible.cfg`, unless the current folder is writable by anyone, which
 * Ansible ignores as a config source; `~/.ansible.cfg`; `/etc/ansible/ansible.cfg`). A list takes its
 * first path that exists; relative paths are relative to the ansible.cfg's folder, `~` is the home
 * folder. A hosts file stands for its folder, where `group_vars/` lies beside it.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { readRegularFileIfExistsSync } from '../safe-read.js';

export interface FoundInventory {
  /** The inventory folder (or file, when it is no hosts file beside group_vars/). */
  path: string;
  /** Where it was named: `ANSIBLE_INVENTORY` or `ansible.cfg <path>`. */
  from: string;
}

const info = (path: string) => statSync(path, { throwIfNoEntry: false });

/** The ansible.cfg Ansible reads, in its order; undefined when none. */
export function ansibleCfg(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const candidates: string[] = [];
  if (env.ANSIBLE_CONFIG) {
    const named = resolve(cwd, env.ANSIBLE_CONFIG);
    candidates.push(info(named)?.isDirectory() ? join(named, 'ansible.cfg') : named);
  }
  // A world-writable working folder is no config source for Ansible (anyone could have put ansible.cfg there).
  if (((info(cwd)?.mode ?? 0) & 0o002) === 0) candidates.push(join(cwd, 'ansible.cfg'));
  candidates.push(join(env.HOME || homedir(), '.ansible.cfg'), '/etc/ansible/ansible.cfg');
  return candidates.find((path) => info(path)?.isFile());
}

/** `[defaults] inventory` of an ansible.cfg's text (INI: `key = value` or `key: value`, `#` and `;` comments). */
export function inventoryOption(text: string): string | undefined {
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      section = header[1].trim();
      continue;
    }
    const option = /^([A-Za-z_][\w-]*)\s*[=:]\s*(.*)$/.exec(line);
    if (section === 'defaults' && option?.[1] === 'inventory') return option[2].replace(/\s+[#;].*$/, '').trim();
  }
  return undefined;
}

/** The first path of a comma-separated list that exists, `~` expanded, relative ones against `base`. */
function firstExisting(list: string, base: string, env: NodeJS.ProcessEnv): string | undefined {
  const home = env.HOME || homedir();
  for (const item of list
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const path = item === '~' ? home : item.startsWith('~/') ? join(home, item.slice(2)) : resolve(base, item);
    const found = info(path);
    if (!found) continue;
    // A hosts file: the variables cloudgate reads are in group_vars/ beside it.
    return found.isFile() && info(join(dirname(path), 'group_vars'))?.isDirectory() ? dirname(path) : path;
  }
  return undefined;
}

export function ansibleInventory(env: NodeJS.ProcessEnv, cwd: string): FoundInventory | undefined {
  if (env.ANSIBLE_INVENTORY) {
    const path = firstExisting(env.ANSIBLE_INVENTORY, cwd, env);
    return path ? { path, from: 'ANSIBLE_INVENTORY' } : undefined;
  }
  const cfg = ansibleCfg(env, cwd);
  if (!cfg) return undefined;
  let text: string | undefined;
  try {
    text = readRegularFileIfExistsSync(cfg, { what: 'ansible.cfg' })?.text;
  } catch {
    return undefined; // Ansible would say why; cloudgate only looks for an inventory here.
  }
  const option = text === undefined ? undefined : inventoryOption(text);
  const path = option ? firstExisting(option, dirname(cfg), env) : undefined;
  return path ? { path, from: `ansible.cfg ${cfg}` } : undefined;
}
