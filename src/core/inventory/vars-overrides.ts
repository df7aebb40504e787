/**
 * Setup writes one vars file, but Ansible reads every vars file of a group, in order, the last value
 * winning: `group_vars/<group>/` folder files sorted by name (sub-folders in place), and of
 * `group_vars/<group>`, `<group>.yml`, `<group>.yaml`, `<group>.json` only the first that exists.
 * Beyond the group: a host's `host_vars/<host>` beat every group's, and another group's `group_vars`
 * beat those of `all` (between two other groups, the child group, else the later name, wins).
 * These warnings say when what setup writes would not be what Ansible uses.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import type { Finding } from '../findings.js';
import { groupFolderFiles, groupVarsFiles, readVarsFile } from './inventory.js';

const GROUP_SOURCES = ['', '.yml', '.yaml', '.json'];

export async function overrideWarnings(inventoryPath: string, keys: string[]): Promise<Finding[]> {
  if (keys.length === 0) return [];
  const groupDir = groupFolderOf(inventoryPath);
  if (groupDir === undefined)
    return [...ignoredGroupFile(inventoryPath), ...(await otherSources(groupFileOf(inventoryPath), keys))];
  const own = segments(groupDir, inventoryPath);
  const later = (await groupFolderFiles(groupDir).catch(() => [])).filter(
    (f) => compare(segments(groupDir, f), own) > 0,
  );
  const findings: Finding[] = [];
  const warned = new Set<string>();
  for (const file of later) {
    const values = valuesOf(file);
    for (const key of keys) {
      if (!values || !(key in values) || warned.has(key)) continue;
      warned.add(key);
      findings.push({
        rule: 'overridden',
        variable: key,
        severity: 'warning',
        message: `${key} is also set in ${file}, which Ansible loads after ${basename(inventoryPath)} for the same group: its value wins.`,
        advice: `Remove ${key} from ${file}, or run setup with --inventory ${file}.`,
      });
    }
  }
  return [...findings, ...(await otherSources(groupDir, keys))];
}

/**
 * `host_vars/` and the other groups' `group_vars/` next to the group of `own` (a `group_vars/<group>` folder
 * or file): each key one of them sets, with which file wins for which hosts.
 */
async function otherSources(own: string | undefined, keys: string[], groups = true): Promise<Finding[]> {
  const warned = new Set<string>();
  if (own === undefined) return [];
  const groupVars = dirname(own);
  const root = dirname(groupVars);
  const ownGroup = nameOf(basename(own));
  const findings: Finding[] = [];
  const sources = [
    ...(await groupVarsFiles(join(root, 'host_vars')).catch(() => [])).map((file) => ({
      file,
      kind: 'host' as const,
      dir: join(root, 'host_vars'),
    })),
    ...(groups ? await groupVarsFiles(groupVars).catch(() => []) : []).map((file) => ({
      file,
      kind: 'group' as const,
      dir: groupVars,
    })),
  ];
  for (const { file, kind, dir } of sources) {
    const name = nameOf(segments(dir, file)[0]);
    if (kind === 'group' && (name === ownGroup || name === 'all')) continue;
    const values = valuesOf(file);
    for (const key of keys) {
      // One warning per variable and kind of source (host, group), besides the same group's own files.
      if (!values || !(key in values) || warned.has(`${kind}:${key}`)) continue;
      warned.add(`${kind}:${key}`);
      findings.push({
        rule: 'overridden',
        variable: key,
        severity: 'warning',
        message: overrideMessage(key, file, kind, name, ownGroup),
        advice: `Remove ${key} from ${file}${kind === 'host' ? '' : ", or run setup with --inventory on that group's file"}, so that one value applies.`,
      });
    }
  }
  return findings;
}

/**
 * For the doctor, given an inventory folder (or its `group_vars/`): the `host_vars/` files that set one of
 * `keys`. The groups' own files are all read by the doctor, which reports their conflicts itself.
 */
export async function hostVarsOverrides(folder: string, keys: string[]): Promise<Finding[]> {
  const root = basename(folder) === 'group_vars' ? dirname(folder) : folder;
  return keys.length ? otherSources(join(root, 'group_vars', 'all'), keys, false) : [];
}

function overrideMessage(key: string, file: string, kind: 'host' | 'group', name: string, ownGroup: string): string {
  if (kind === 'host')
    return `${key} is also set in ${file}, the host variables of ${name}: for that host Ansible uses this value (host variables win over every group's).`;
  if (ownGroup === 'all')
    return `${key} is also set in ${file}, the variables of group ${name}: for the hosts of ${name} Ansible uses this value (a group's variables win over those of "all").`;
  const later = name > ownGroup ? name : ownGroup;
  return `${key} is also set in ${file}, the variables of group ${name}: for hosts in both ${ownGroup} and ${name}, Ansible uses the child group's value; at the same depth the later name (${later}) wins, unless ansible_group_priority says otherwise.`;
}

/** `group_vars/<group>`, `<group>.yml`...: the group's own file, when the inventory file is one of these. */
function groupFileOf(path: string): string | undefined {
  return basename(dirname(path)) === 'group_vars' && GROUP_SOURCES.includes(extname(path)) ? path : undefined;
}

const nameOf = (entry: string) =>
  ['.yml', '.yaml', '.json'].includes(extname(entry)) ? entry.slice(0, -extname(entry).length) : entry;

/** The `group_vars/<group>` folder holding the file, if it is inside one. */
function groupFolderOf(path: string): string | undefined {
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    if (basename(dirname(dir)) === 'group_vars') return dir;
  }
  return undefined;
}

/** `group_vars/all.yml` is not read at all when `group_vars/all/` (or a file before it) exists. */
function ignoredGroupFile(path: string): Finding[] {
  if (basename(dirname(path)) !== 'group_vars') return [];
  const ext = extname(path);
  if (!GROUP_SOURCES.includes(ext)) return [];
  const group = path.slice(0, path.length - ext.length);
  const first = GROUP_SOURCES.map((e) => group + e).find((candidate) => existsSync(candidate));
  if (first === undefined || first === path) return [];
  return [
    {
      rule: 'overridden',
      severity: 'warning',
      message: `Ansible does not read ${path}: ${first} exists, and Ansible reads only the first of ${GROUP_SOURCES.map((e) => basename(group) + (e || '/')).join(', ')}.`,
      advice: `Run setup with --inventory ${first === group ? join(group, 'certificates.yml') : first}.`,
    },
  ];
}

function valuesOf(file: string): Record<string, unknown> | undefined {
  try {
    return readVarsFile(file, 'the vars file');
  } catch {
    return undefined; // an unreadable or vaulted file: nothing to compare
  }
}

function segments(root: string, path: string): string[] {
  return relative(root, path).split(sep);
}

/** Ansible's order: names compared folder level by folder level, by code point. */
function compare(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}
