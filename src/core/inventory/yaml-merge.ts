/**
 * YAML merge keys (`<<: *defaults`) as Ansible reads them: its YAML loader merges the anchored mapping
 * into the mapping that holds the key, keys written in the mapping itself winning, and of a list of
 * sources the first that has a key. The values are the parser's (it merges the same way); what this
 * adds is where each merged top-level variable came from, for findings: the top-level key whose value
 * holds the anchored mapping (`<<` itself for a mapping written inline).
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { UsageError } from '../errors.js';
import { asRecord } from '../records.js';

/** A plain `<<` key, which the YAML 1.1 schema resolves to a merge (a quoted "<<" is an ordinary key). */
export function isMergeKey(key: unknown): boolean {
  return isScalar(key) && typeof key.value === 'symbol' && key.value.description === '<<';
}

/** Variable → the top-level key its value was merged from (a field of the parsed mapping: YamlMapping.merged). */
export type MergeSources = Record<string, string>;

/**
 * Adds the variables the top-level merge keys of `map` bring to `target.values`, and where each came
 * from to `target.merged` (`values`: the parser's merged result). `keyAt` names the top-level entry at an
 * offset of the document. False when an anchor is not in this document (a piece of a larger file): then
 * the whole file must be parsed.
 */
export function addMerged(
  target: { values: Record<string, unknown>; merged: MergeSources },
  map: YAMLMap,
  doc: Document.Parsed,
  values: Record<string, unknown>,
  keyAt: (offset: number) => string | undefined,
): boolean {
  const merges = map.items.filter((pair: Pair) => isMergeKey(pair.key));
  if (merges.length === 0) return true;
  const explicit = new Set(
    map.items
      .filter((p) => isScalar(p.key) && !isMergeKey(p.key))
      .map((p) => String(isScalar(p.key) ? p.key.value : '')),
  );
  const sources: MergeSources = {};
  for (const pair of merges) {
    // The library types a parsed pair's value as unknown: it is a node of the document, or null.
    const value = pair.value as Node | null;
    const items = isSeq(value) ? value.items : [value];
    for (const item of items) {
      const resolved = isAlias(item) ? item.resolve(doc) : item;
      if (!resolved || !isMap(resolved)) return false;
      const from = isAlias(item) ? (resolved.range ? keyAt(resolved.range[0]) : undefined) : '<<';
      if (from === undefined) return false;
      for (const key of Object.keys(asRecord(resolved.toJS(doc, { maxAliasCount: 1000 })) ?? {})) {
        if (explicit.has(key) || key in sources || key in target.merged || !(key in values)) continue;
        sources[key] = from;
        target.values[key] = values[key];
      }
    }
  }
  Object.assign(target.merged, sources);
  return true;
}

/** The parser's error for `<<: 5` (a merge of something that is not a mapping), as Ansible's loader refuses it. */
export function mergeError(error: unknown, file: string): UsageError | undefined {
  if (!(error instanceof Error) || !/merge sources must be maps/i.test(error.message)) return undefined;
  return new UsageError(
    `${file} merges (<<) a value that is not a mapping or a list of mappings: Ansible refuses to load it.`,
    'Give << an alias of a mapping (<<: *defaults), a list of them, or a mapping; nothing was written.',
  );
}
