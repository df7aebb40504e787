/**
 * Which names a new inventory's deployment reads, told by the rest of the inventory folder: the other
 * files of its group_vars/ (a real platform inventory holds `openstack_helm_*` and `atmosphere_*`
 * variables of its other roles; a neutral one holds cloudgate's neutral names).
 */
import { dirname, resolve, sep } from 'node:path';
import { stat } from 'node:fs/promises';
import { readInventoryTree } from '../inventory/inventory.js';
import type { NamingProfile } from '../render/names.js';
import { detectProfile } from './platform-names.js';

export interface NamesDetection {
  /** What the folder says; undefined: nothing tells. */
  profile?: NamingProfile;
  /** The file and variable that told, for the question's help line. */
  evidence?: string;
}

const PLATFORM_WIDE = /^(atmosphere|openstack_helm)_/;
const NEUTRAL_WIDE = /^(platform_ingress|cloud_helm)_/;

/** The group_vars/ folder holding (or above) the inventory path, if any. */
async function groupVarsOf(inventoryPath: string): Promise<string | undefined> {
  const parts = resolve(inventoryPath).split(sep);
  const at = parts.lastIndexOf('group_vars');
  if (at > 0) return parts.slice(0, at + 1).join(sep);
  const candidate = resolve(dirname(inventoryPath), 'group_vars');
  return (await stat(candidate).then((s) => s.isDirectory(), () => false)) ? candidate : undefined;
}

export async function namesFromFolder(inventoryPath: string): Promise<NamesDetection> {
  const folder = await groupVarsOf(inventoryPath);
  if (!folder) return {};
  let tree;
  try {
    tree = await readInventoryTree(folder);
  } catch {
    return {};
  }
  const self = resolve(inventoryPath);
  for (const file of tree.files.filter((f) => resolve(f.path) !== self)) {
    const keys = Object.keys(file.values);
    const profile = detectProfile(keys, file.path, file.values);
    const wide = keys.find((k) => PLATFORM_WIDE.test(k)) ? 'platform' : keys.find((k) => NEUTRAL_WIDE.test(k)) ? 'spec' : undefined;
    const told = profile ?? wide;
    if (told) {
      const key = keys.find((k) => (told === 'platform' ? PLATFORM_WIDE : NEUTRAL_WIDE).test(k)) ?? keys[0];
      return { profile: told, evidence: `${file.path} (${key})` };
    }
  }
  return {};
}
