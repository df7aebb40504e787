/**
 * The fast path for large mappings: the text is cut at its top-level keys (by lines, see
 * yaml-top-level.ts), consecutive entries are grouped into pieces of about PIECE_BYTES, and each piece
 * is parsed on its own, so the parser's memory stays bounded per piece. Entries the caller does not
 * want are not parsed at all, and kept byte for byte. Whatever a piece cannot decide alone (an alias to
 * another piece, a syntax error, a duplicate key, document markers) returns undefined: the caller then
 * parses the text whole, which gives the exact error.
 */
import { isMap } from 'yaml';
import { PIECE_BYTES } from './yaml-limits.js';
import { addPiece, emptyMapping, type LoadedYaml, type YamlMapping } from './yaml-mapping.js';
import { eachTopLevelEntry, type TopLevelEntry, type TopLevelShape } from './yaml-top-level.js';

/**
 * The names after `&` where an anchor may start: read from the text, so a `&` in a quoted value or a
 * comment counts too (at worst a whole parse that was not needed).
 */
const ANCHOR = /(?:^|[\s:,[{-])&([^\s,[\]{}]+)/g;
const ANCHOR_NAME_CHAR = /^[^\s,[\]{}]$/;

/** Parses a piece as a whole document would be parsed; undefined on any error or duplicate key. */
export type ParsePiece = (text: string) => LoadedYaml | undefined;

/** The wanted entries of a block mapping, parsed in pieces; undefined when only a whole parse can tell. */
export function loadLargeMapping(
  text: string,
  wanted: (key: string) => boolean,
  parse: ParsePiece,
): YamlMapping | undefined {
  const mapping = emptyMapping(text);
  const shape: TopLevelShape = {};
  let group: TopLevelEntry[] = [];
  let skipped = false;
  const anchors: Anchor[] = [];
  const flush = (): boolean => {
    const ok = group.length === 0 || readGroup(mapping, group, anchors, parse);
    group = [];
    return ok;
  };
  const split = eachTopLevelEntry(
    text,
    (entry) => {
      if (!wanted(entry.key)) {
        skipped = true;
        return flush();
      }
      const first = group[0];
      if (first && (group[group.length - 1].end !== entry.start || entry.end - first.start > PIECE_BYTES) && !flush())
        return false;
      group.push(entry);
      return true;
    },
    shape,
  );
  if (!split || !flush()) return undefined;
  // Some entries were not parsed: an alias in one of them may name an anchor of a piece that was.
  if (skipped && !anchors.every((anchor) => aliasesInside(text, anchor))) return undefined;
  // New entries go before a `...` document end, never after it.
  if (shape.documentEnd !== undefined) mapping.insertAt = shape.documentEnd;
  return mapping;
}

/** An anchor's name and the piece that defines it (its parse is not kept). */
interface Anchor {
  name: string;
  start: number;
  end: number;
}

/** Parses consecutive entries as one piece, noting in `anchors` the names it may define. */
function readGroup(mapping: YamlMapping, group: TopLevelEntry[], anchors: Anchor[], parse: ParsePiece): boolean {
  const start = group[0].start;
  const end = group[group.length - 1].end;
  const text = mapping.text.slice(start, end);
  const piece = parse(text);
  if (!piece || !isMap(piece.doc.contents) || piece.doc.contents.items.length !== group.length) return false;
  for (const [, name] of text.matchAll(ANCHOR)) anchors.push({ name, start, end });
  return addPiece(mapping, piece, start, group[0].line - 1);
}

/**
 * Whether a piece's anchor can be read alone: no alias outside the piece names it (an alias of the
 * piece to an anchor elsewhere already failed its parse). An `*name` anywhere else in the text, even
 * in a comment, sends the file to the whole parse.
 */
function aliasesInside(text: string, { name, start, end }: Anchor): boolean {
  const alias = `*${name}`;
  for (let at = text.indexOf(alias); at !== -1; at = text.indexOf(alias, at + 1)) {
    if ((at < start || at >= end) && !ANCHOR_NAME_CHAR.test(text.charAt(at + alias.length))) return false;
  }
  return true;
}
