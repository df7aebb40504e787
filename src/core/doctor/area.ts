/**
 * One doctor group, as its folder under core/areas/ declares it: its name, its title, its checks
 * (loaded only when the group is asked for) and its own metric families.
 */
import type { DoctorInput } from './input.js';
import type { AreaMetric } from './metrics.js';
import type { Check } from './types.js';

/** An area's contribution to the doctor: the checks of its group, each with its gate decided now. */
export type CheckProvider = (input: DoctorInput) => Check[] | Promise<Check[]>;

export interface Area<G extends string = string> {
  group: G;
  title: string;
  provideChecks: CheckProvider;
  /** Families of the area's own, computed from its group's outcomes (the doctor's own families cover every check). */
  metrics?: readonly AreaMetric[];
}

/** An area whose modules are imported only when its checks are asked for, their checks in this order. */
export function lazyArea<G extends string>(
  group: G,
  title: string,
  modules: (() => Promise<{ provideChecks: CheckProvider }>)[],
  metrics?: readonly AreaMetric[],
): Area<G> {
  return {
    group,
    title,
    async provideChecks(input) {
      const checks: Check[] = [];
      for (const load of modules) checks.push(...(await (await load()).provideChecks(input)));
      return checks;
    },
    ...(metrics ? { metrics } : {}),
  };
}
