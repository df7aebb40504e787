/**
 * Setup writes one vars file, but Ansible reads every vars file of a group, in order, the last value
 * winning: `group_vars/<group>/` folder files sorted by name (sub-folders in place), and of
 * `group_vars/<group>`, `<group>.yml`, `<group>.yaml`, `<group>.json` only the first that exists.
 * These warnings say when what setup writes would not be what Ansible uses.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import type { Finding } from '../findings.js';
import { groupFolderFiles, readVarsFile } from './inventory.js';

const GROUP_SOURCES = ['', '.yml', '.yaml', '.json'];

export async function overrideWarnings(inventoryPath: string, keys: string[]): Promise<Finding[]> {
  if (keys.length === 0) return [];
  const groupDir = groupFolderOf(inventoryPath);
  if (groupDir === undefined) return ignoredGroupFile(inventoryPath);
  const own = segments(groupDir, inventoryPath);
  const later = (await groupFolderFiles(groupDir).catch(() => [])).filter((f) => compare(segments(groupDir, f), own) > 0);
  const findings: Finding[] = [];
  const warned = new Set<string>();
  for (const file of later) {
    const values = valuesOf(file);
    for (const key of keys) {
      if (!values || !(key in values) || warned.has(key)) continue;
      warned.add(key);
      findings.push({
        rule: 'overridden', variable: key, severity: 'warning',
        message: `${key} is also set in ${file}, which Ansible loads after ${basename(inventoryPath)} for the same group: its value wins.`,
        advice: `Remove ${key} from ${file}, or run setup with --inventory ${file}.`,
      });
    }
  }
  return findings;
}

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
  return [{
    rule: 'overridden', severity: 'warning',
    message: `Ansible does not read ${path}: ${first} exists, and Ansible reads only the first of ${GROUP_SOURCES.map((e) => basename(group) + (e || '/')).join(', ')}.`,
    advice: `Run setup with --inventory ${first === group ? join(group, 'certificates.yml') : first}.`,
  }];
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
