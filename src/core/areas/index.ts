/**
 * The doctor's areas, each a folder exporting `{ group, title, provideChecks, metrics? }`, in report
 * order. An area loads its modules only when its group is asked for, so `--only inventory` never loads
 * the HTTP client. A new area is one new folder, one entry here and its name in groups.ts.
 */
import type { Area } from '../doctor/area.js';
import type { DoctorInput } from '../doctor/input.js';
import { areaFamilies, type MetricFamily } from '../doctor/metrics.js';
import type { Check } from '../doctor/types.js';
import { area as acme } from './acme/index.js';
import { area as certificate } from './certificate/index.js';
import { area as discovery } from './discovery/index.js';
import { area as inventory } from './inventory/index.js';
import { area as kube } from './kube/index.js';
import { area as signin } from './signin/index.js';
import { area as tls } from './tls/index.js';
import { GROUPS, type Group } from './groups.js';
import { CONFIG_SECTIONS } from '../config/config-keys.js';

export { GROUPS, type Group } from './groups.js';

const BY_GROUP = { inventory, certificate, signin, tls, discovery, kube, acme } satisfies Record<Group, Area>;

export const AREAS: readonly Area[] = GROUPS.map((group) => BY_GROUP[group]);

/** Every group's title, for the renderers (which read it from here, handed to them, never the areas). */
export const GROUP_TITLES: Readonly<Record<string, string>> = Object.fromEntries(AREAS.map((a) => [a.group, a.title]));

/** The title of a group for reports. */
export function groupTitle(group: string): string {
  return AREAS.find((a) => a.group === group)?.title ?? group;
}

/** Every area's own metric families, each over its group's outcomes (the Prometheus renderer writes them). */
export const AREA_METRICS: readonly MetricFamily[] = AREAS.flatMap((a) =>
  a.metrics ? areaFamilies(a.group, a.metrics) : [],
);

/** The checks of the given groups (every group when `only` is empty), each area loaded lazily. */
export async function checksOf(input: DoctorInput, only: readonly string[]): Promise<Check[]> {
  const wanted = (group: string) => only.length === 0 || only.includes(group);
  const checks: Check[] = [];
  const listed = AREAS.filter((a) => wanted(a.group));
  const groups = listed.map((a) => a.group);
  for (const area of listed) {
    checks.push(...(await area.provideChecks({ ...input, groups })).filter((c) => wanted(c.group)));
  }
  // Findings about the --config file belong to the groups whose settings it holds (one section each).
  const sections = CONFIG_SECTIONS.filter(wanted);
  if (sections.length > 0) {
    const { provideChecks } = await import('../doctor/config-checks.js');
    const found = (await provideChecks(input)).filter((c) => wanted(c.group));
    // They come first in their groups, as the file is what the other checks of the group read.
    const at = checks.findIndex((c) => sections.includes(c.group));
    checks.splice(at < 0 ? checks.length : at, 0, ...found);
  }
  return checks;
}
