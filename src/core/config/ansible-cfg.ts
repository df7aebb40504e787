/**
 * The inventory Ansible would use here, found as Ansible finds it: `ANSIBLE_INVENTORY`, else the
 * `inventory` of `[defaults]` in the ansible.cfg Ansible reads (found once, in inventory/ansible-config.ts,
 * for every Ansible setting cloudgate reads). A list takes its
 * first path that exists; relative paths are relative to the ansible.cfg's folder, `~` is the home
 * folder. A hosts file stands for its folder, where `group_vars/` lies beside it.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ansibleSetting } from '../inventory/ansible-config.js';

export interface FoundInventory {
  /** The inventory folder (or file, when it is no hosts file beside group_vars/). */
  path: string;
  /** Where it was named: `ANSIBLE_INVENTORY` or `ansible.cfg <path>`. */
  from: string;
}

const info = (path: string) => statSync(path, { throwIfNoEntry: false });

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
  const setting = ansibleSetting(env, cwd, 'ANSIBLE_INVENTORY', 'inventory');
  const path = setting ? firstExisting(setting.value, setting.base, env) : undefined;
  return path && setting ? { path, from: setting.file ? `ansible.cfg ${setting.file}` : setting.source } : undefined;
}
