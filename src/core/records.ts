/** JSON and YAML values read from servers and files: the one test of "an object with named members". */

/** A mapping: an object that is neither null nor an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` as a mapping, or undefined. */
export const asRecord = (value: unknown): Record<string, unknown> | undefined => (isRecord(value) ? value : undefined);

/** `value` when it is a string, else undefined. */
export const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `value` when it is a finite number, else undefined. */
export const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The strings of `value` when it is a list (other entries dropped), else an empty list. */
export const textsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** A member of a mapping, or undefined when the value is no mapping. */
export const memberOf = (value: unknown, key: string): unknown => asRecord(value)?.[key];

/**
 * `over` laid on `base` key by key, nested mappings merged, anything else replaced: Ansible's
 * `combine(recursive=True)`, and how the OpenStack client lays secure.yaml over clouds.yaml.
 */
export function mergeRecords(base: Record<string, unknown>, over: unknown): Record<string, unknown> {
  if (!isRecord(over)) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over))
    out[key] = isRecord(out[key]) && isRecord(value) ? mergeRecords(out[key], value) : value;
  return out;
}

/** Whether `value` is one of `choices` (an `as const` list of literals), narrowing it to their union. */
export const isOneOf = <T>(choices: readonly T[], value: unknown): value is T =>
  choices.some((choice) => choice === value);
