import { CONFIG_KEYS } from '../config/config-keys.js';
import type { Area, DoctorInput } from '../doctor/input.js';
import { area as acme } from './acme/index.js';
import { area as certificate } from './certificate/index.js';
import { area as discovery } from './discovery/index.js';
import { area as inventory } from './inventory/index.js';
import { area as kube } from './kube/index.js';
import { area as signin } from './signin/index.js';
import { area as tls } from './tls/index.js';
import type { Check } from '../doctor/types.js';
import { closest } from '../closest.js';
import { UsageError } from '../errors.js';

/**
 * The doctor's areas, each a folder exporting `{ group, title, provideChecks }`, in report order. An
 * area loads its modules only when its group is asked for, so `--only inventory` never loads the HTTP
 * client. A new area is one new folder and one entry here.
 */
export const AREAS: Area[] = [inventory, certificate, signin, tls, discovery, kube, acme];

export const GROUPS = AREAS.map((a) => a.group);

/** The groups `--only` names, refused (a usage error) when one is not a group. */
export function groupsOf(only: string[]): string[] {
  const unknown = only.filter((g) => !GROUPS.includes(g));
  if (unknown.length) {
    const guess = closest(unknown[0], GROUPS);
    throw new UsageError(`Unknown check group: ${unknown.join(', ')}.`, `${guess ? `Did you mean --only ${guess}? ` : ''}Groups: ${GROUPS.join(', ')}.`);
  }
  return only;
}

/** Every group's title, for the renderers (which read it from here, handed to them, never the areas). */
export const GROUP_TITLES: Readonly<Record<string, string>> = Object.fromEntries(AREAS.map((a) => [a.group, a.title]));

/** The title of a group for reports. */
export function groupTitle(group: string): string {
  return AREAS.find((a) => a.group === group)?.title ?? group;
}

/** Findings about the --config file belong to the groups whose settings it holds (one section each). */
const CONFIG_GROUPS = Object.keys(CONFIG_KEYS);

/** The checks of the given groups (every group when `only` is empty), each area loaded lazily. */
export async function checksOf(input: DoctorInput, only: string[]): Promise<Check[]> {
  const wanted = (group: string) => only.length === 0 || only.includes(group);
  const checks: Check[] = [];
  for (const area of AREAS.filter((a) => wanted(a.group))) {
    checks.push(...(await area.provideChecks(input)).filter((c) => wanted(c.group)));
  }
  if (CONFIG_GROUPS.some(wanted)) {
    const { provideChecks } = await import('../doctor/config-checks.js');
    const found = (await provideChecks(input)).filter((c) => wanted(c.group));
    // They come first in their groups, as the file is what the other checks of the group read.
    const at = checks.findIndex((c) => CONFIG_GROUPS.includes(c.group));
    checks.splice(at < 0 ? checks.length : at, 0, ...found);
  }
  return checks;
}
