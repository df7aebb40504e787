/**
 * The fast path for large mappings: the text is cut at its top-level keys (by lines, see
 * yaml-top-level.ts), consecutive entries are grouped into pieces of about PIECE_BYTES, and each piece
 * is parsed on its own, so the parser's memory stays bounded per piece. Entries the caller does not
 * want are not parsed at all, and kept byte for byte. Whatever a piece cannot decide alone (an alias to
 * another piece, a syntax error, a duplicate key, document markers) returns undefined: the caller then
 * parses the text whole, which gives the exact error.
 */
import { isMap, parseDocument, visit, type Document } from 'yaml';
import { ANSIBLE_YAML_OPTIONS, plainValue } from './yaml-ansible.js';
import { PIECE_BYTES } from './yaml-limits.js';
import { addPiece, emptyMapping, type LoadedYaml, type YamlMapping } from './yaml-mapping.js';
import { duplicateKeys, noticeOf } from './yaml-notices.js';
import { eachTopLevelEntry, type TopLevelEntry, type TopLevelShape } from './yaml-top-level.js';

/** An anchor (`&a`) or alias (`*a`) may tie an entry to one that is not read. */
const ANCHOR_OR_ALIAS = /(?:^|[\s:,[{-])[&*][^\s,[\]{}]/;
const ANCHOR_NAME_CHAR = /^[^\s,[\]{}]$/;

/** The wanted entries of a block mapping, parsed in pieces; undefined when only a whole parse can tell. */
export function loadLargeMapping(text: string, wanted: (key: string) => boolean): YamlMapping | undefined {
  const mapping = emptyMapping(text);
  const shape: TopLevelShape = {};
  let group: TopLevelEntry[] = [];
  let skipped = false;
  const anchored: AnchoredPiece[] = [];
  const flush = (): boolean => {
    const ok = group.length === 0 || readGroup(mapping, group, anchored);
    group = [];
    return ok;
  };
  const split = eachTopLevelEntry(text, (entry) => {
    if (!wanted(entry.key)) {
      skipped = true;
      return flush();
    }
    const first = group[0];
    if (first && (group[group.length - 1].end !== entry.start || entry.end - first.start > PIECE_BYTES) && !flush()) return false;
    group.push(entry);
    return true;
  }, shape);
  if (!split || !flush()) return undefined;
  // Some entries were not parsed: an alias in one of them may name an anchor of a piece that was.
  if (skipped && !anchored.every((piece) => anchorsStayInside(text, piece))) return undefined;
  // New entries go before a `...` document end, never after it.
  if (shape.documentEnd !== undefined) mapping.insertAt = shape.documentEnd;
  return mapping;
}

/** A piece read, with the anchors it defines (names only: its parse is not kept). */
interface AnchoredPiece {
  start: number;
  end: number;
  anchors: Set<string>;
}

/** Parses consecutive entries as one piece; a piece that may hold anchors is noted in `anchored`. */
function readGroup(mapping: YamlMapping, group: TopLevelEntry[], anchored: AnchoredPiece[]): boolean {
  const start = group[0].start;
  const end = group[group.length - 1].end;
  const text = mapping.text.slice(start, end);
  const piece = parsePiece(text);
  if (!piece || !isMap(piece.doc.contents) || piece.doc.contents.items.length !== group.length) return false;
  if (ANCHOR_OR_ALIAS.test(text)) anchored.push({ start, end, anchors: anchorsOf(piece.doc) });
  return addPiece(mapping, piece, start, group[0].line - 1);
}

function parsePiece(text: string): LoadedYaml | undefined {
  const doc = parseDocument(text, ANSIBLE_YAML_OPTIONS);
  if (doc.errors.length > 0 || duplicateKeys(doc, text).length > 0) return undefined;
  try {
    return { doc, value: plainValue(doc), notices: doc.warnings.map(noticeOf) };
  } catch {
    return undefined;
  }
}

/**
 * Whether a piece with anchors can be read alone: no alias outside it may name one of its anchors (an
 * alias of its own to an anchor elsewhere already failed its parse). An `*name` anywhere else in the
 * text, even in a comment, sends the file to the whole parse.
 */
function anchorsStayInside(text: string, { start, end, anchors }: AnchoredPiece): boolean {
  for (const name of anchors) {
    const alias = `*${name}`;
    for (let at = text.indexOf(alias); at !== -1; at = text.indexOf(alias, at + 1)) {
      if (at >= start && at < end) continue;
      if (!ANCHOR_NAME_CHAR.test(text.charAt(at + alias.length))) return false;
    }
  }
  return true;
}

function anchorsOf(doc: Document.Parsed): Set<string> {
  const anchors = new Set<string>();
  visit(doc, {
    Node(_, node) {
      if (node.anchor) anchors.add(node.anchor);
    },
  });
  return anchors;
}
