/**
 * A top-level YAML mapping (an inventory) with where each entry sits in the text, so that an update can
 * splice the text and leave every other byte as it was. It is built from parsed pieces of the text
 * (the whole text, or groups of top-level entries; see yaml-large.ts).
 */
import { isMap, isScalar, visit, type Document } from 'yaml';
import { keepDigits, MAX_ALIAS_COUNT } from './yaml-ansible.js';
import { addMerged, isMergeKey, type MergeSources } from './yaml-merge.js';
import type { YamlNotice } from './yaml-notices.js';
import { asRecord } from '../records.js';

/** One top-level `name: value` of a mapping, with where it sits in the text. */
export interface YamlEntry {
  key: string;
  value: unknown;
  /** From the start of the key's line to the end of the value's last line (trailing comment included). */
  start: number;
  end: number;
  /** The key itself (a rename replaces only it). */
  keyStart: number;
  keyEnd: number;
  /** The value node itself, for in-place edits of a one-line scalar. */
  valueStart?: number;
  valueEnd?: number;
  /** A scalar without tag or anchor (its text alone can be replaced). */
  scalar: boolean;
}

/** An alias (`*name`) whose anchor is in another top-level entry. */
export interface YamlCrossAlias {
  name: string;
  start: number;
  end: number;
  /** The entry holding the anchored node, and the node's value. */
  targetKey: string;
  targetValue: unknown;
}

export interface YamlMapping {
  text: string;
  /** The entries by key (a key's first entry). */
  byKey: Map<string, YamlEntry>;
  values: Record<string, unknown>;
  /** The variables top-level merge keys (`<<: *defaults`) brought, each with the key it was merged from. */
  merged: MergeSources;
  aliases: YamlCrossAlias[];
  notices: YamlNotice[];
  /** Where new entries go: the end of the mapping, before a `...` document end. */
  insertAt: number;
  /** A flow mapping (`{a: 1}`), which text splices cannot extend. */
  flow: boolean;
}

/** One parse of a text (the whole file or a piece of it); notice lines are those of that text. */
export interface LoadedYaml {
  doc: Document.Parsed;
  /** The document as plain values (`AnsibleTagged` for tagged scalars, `undefined` when empty). */
  value: unknown;
  /** Warnings: the file loads, but not the way its author may expect (an unknown tag, say). */
  notices: YamlNotice[];
}

export function emptyMapping(text: string): YamlMapping {
  return {
    text,
    byKey: new Map(),
    values: {},
    merged: {},
    aliases: [],
    notices: [],
    insertAt: text.length,
    flow: false,
  };
}

type Range = [number, number, number];

/**
 * Adds a parsed piece (at `offset` in the text, starting on line `line + 1`); false when the piece
 * cannot stand alone (a key already seen, an alias to an anchor outside it) and the text must be parsed whole.
 */
export function addPiece(mapping: YamlMapping, piece: LoadedYaml, offset: number, line: number): boolean {
  const { doc } = piece;
  const values = asRecord(piece.value) ?? {};
  const contents = doc.contents;
  mapping.notices.push(...piece.notices.map((n) => (n.line ? { ...n, line: n.line + line } : n)));
  if (!isMap(contents)) return true;
  mapping.flow = contents.flow ?? false;
  const pieceEntries: YamlEntry[] = [];
  for (const pair of contents.items) {
    if (!isScalar(pair.key) || !pair.key.range || isMergeKey(pair.key)) continue;
    const key = String(pair.key.value);
    if (mapping.byKey.has(key)) return false;
    // The library types a pair's value as unknown; the nodes it parses carry their range.
    const valueNode = pair.value as { range?: Range } | null;
    const [start, end] = pairRegion(mapping.text, offset, pair.key.range, valueNode?.range);
    const entry: YamlEntry = {
      key,
      value: values[key],
      start,
      end,
      keyStart: pair.key.range[0] + offset,
      keyEnd: pair.key.range[1] + offset,
      scalar: isScalar(pair.value) && !pair.value.tag && !pair.value.anchor,
      ...(valueNode?.range ? { valueStart: valueNode.range[0] + offset, valueEnd: valueNode.range[1] + offset } : {}),
    };
    pieceEntries.push(entry);
    mapping.byKey.set(key, entry);
    mapping.values[key] = values[key];
  }
  if (!addMerged(mapping, contents, doc, values, (at) => entryAt(pieceEntries, at + offset)?.key)) return false;
  let outside = false;
  visit(doc, {
    Alias(_, alias) {
      const target = alias.resolve(doc);
      if (!target?.range || !alias.range) {
        // Its anchor is in an earlier piece.
        outside = true;
        return;
      }
      const from = entryAt(pieceEntries, alias.range[0] + offset);
      const to = entryAt(pieceEntries, target.range[0] + offset);
      if (!to) outside = true;
      if (!to || from === to) return;
      mapping.aliases.push({
        name: alias.source,
        start: alias.range[0] + offset,
        end: alias.range[1] + offset,
        targetKey: to.key,
        targetValue: keepDigits(target.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT })),
      });
    },
  });
  return !outside;
}

function entryAt(entries: YamlEntry[], offset: number): YamlEntry | undefined {
  let lo = 0;
  let hi = entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].end <= offset) lo = mid + 1;
    else if (entries[mid].start > offset) hi = mid - 1;
    else return entries[mid];
  }
  return undefined;
}

/** From the start of the key's line to the end of the value's last line (trailing comment included). */
function pairRegion(text: string, offset: number, key: Range, value?: Range): [number, number] {
  const start = text.lastIndexOf('\n', key[0] + offset - 1) + 1;
  let end = (value ? Math.max(value[2], key[2]) : key[2]) + offset;
  if (end > 0 && text[end - 1] !== '\n') {
    const nl = text.indexOf('\n', end);
    end = nl === -1 ? text.length : nl + 1;
  }
  return [start, end];
}
