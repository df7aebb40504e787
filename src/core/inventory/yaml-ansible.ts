/**
 * How Ansible reads YAML, as options of the `yaml` library, and the plain values of a parsed document:
 * integers keep every digit, aliases expand to a bounded size.
 */
import type { Document, DocumentOptions, ParseOptions, SchemaOptions, ToJSOptions } from 'yaml';
import { ANSIBLE_YAML_TAGS, pyYamlScalars } from './yaml-tags.js';
import { isRecord } from '../records.js';

/**
 * How Ansible reads YAML: version 1.1 (`yes`/`no` are booleans) as PyYAML resolves its scalars
 * (`y` and `n` stay text, `1e3` is text, a date is the text it is written as), with Ansible's tags.
 */
export const ANSIBLE_YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions = {
  version: '1.1',
  customTags: (tags) => [...pyYamlScalars(tags), ...ANSIBLE_YAML_TAGS],
  intAsBigInt: true,
  // The library's own duplicate check compares every key with every earlier one (quadratic);
  // duplicates are found with one set per mapping instead (yaml-notices.ts).
  uniqueKeys: false,
  // 'error': errors are kept (with 'silent' a second document is dropped without one), warnings never printed.
  logLevel: 'error',
  prettyErrors: true,
};

/** Plain YAML 1.2 without Ansible's tags: for cloudgate's own files (--config). */
export const PLAIN_YAML_OPTIONS: typeof ANSIBLE_YAML_OPTIONS = {
  ...ANSIBLE_YAML_OPTIONS,
  version: '1.2',
  customTags: [],
};

/** Aliases of aliases expanding past this many nodes are refused (an alias bomb). */
export const MAX_ALIAS_COUNT = 1000;

/** The document's value as plain data (throws on an alias bomb or a bad merge key). */
export function plainValue(doc: Document.Parsed): unknown {
  const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  return keepDigits(value);
}

/**
 * Integers are parsed as BigInt so no digit is lost: those a JS number holds exactly become numbers,
 * larger ones their exact decimal digits (text to every variable that could hold them).
 */
export function keepDigits(value: unknown): unknown {
  if (typeof value === 'bigint') {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value.toString();
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = keepDigits(value[i]);
  } else if (value instanceof Set) {
    const items = [...value].map(keepDigits);
    value.clear();
    for (const item of items) value.add(item);
  } else if (value instanceof Map) {
    for (const [k, v] of value) value.set(k, keepDigits(v));
  } else if (isRecord(value) && Object.getPrototypeOf(value) === Object.prototype) {
    for (const key of Object.keys(value)) value[key] = keepDigits(value[key]);
  }
  return value;
}
