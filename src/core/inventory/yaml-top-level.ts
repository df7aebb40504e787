/**
 * The top-level entries of a YAML block mapping found by their lines alone (a key at column 0), without
 * parsing: how a large inventory is cut into entries that can be parsed (or skipped) one by one.
 */
import { textOf } from '../records.js';

export interface TopLevelEntry {
  key: string;
  start: number;
  /** Up to the next entry's line (comments and blank lines between them included). */
  end: number;
  line: number;
}

/** What eachTopLevelEntry saw besides the entries. */
export interface TopLevelShape {
  /** Where a `...` document end starts (only comments and blank lines follow it). */
  documentEnd?: number;
}

/** A key at column 0, then ":" and a space or the line end (matched at a line start, in place). */
const ENTRY_AT = /(?:[A-Za-z0-9_$][^\n:#]*|"[^"\n]*"|'[^'\n]*')[ \t]*:(?:[ \t]|\r?$)/my;
/** Lines of the head: a `%YAML` directive (Ansible reads every file as YAML 1.1), the `---` marker. */
const YAML_DIRECTIVE_AT = /%YAML[ \t]+1\.\d+[ \t]*(?:#.*)?\r?$/my;
const MARKER_AT = /---[ \t]*(?:#.*)?\r?$/my;
const DOCUMENT_END_AT = /\.\.\.[ \t]*(?:#.*)?\r?$/my;
/** Nothing but a comment or white space. */
const EMPTY_AT = /[ \t]*(?:#.*)?\r?$/my;

function matchesAt(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = at;
  return pattern.test(text);
}

/**
 * Calls `each` for the top-level entries of a plain block mapping, without copying the lines. The head
 * may hold comments, `%YAML` directives and one `---`; a `...` document end may close the mapping,
 * followed by comments only. Returns false when the text is anything else (other directives, several
 * documents, a flow mapping, a line at column 0 that is no key, a key written twice) or when `each`
 * returns false: then only a parse can tell, and what `each` was given must be dropped.
 */
export function eachTopLevelEntry(
  text: string,
  each: (entry: TopLevelEntry) => boolean | void,
  shape: TopLevelShape = {},
): boolean {
  let hashes: Float64Array = new Float64Array(1024);
  let count = 0;
  let line = 0;
  let directives = false;
  let sawMarker = false;
  let previous: TopLevelEntry | undefined;
  for (let at = 0; at < text.length; line++) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl === -1 ? text.length : nl;
    const first = text.charCodeAt(at);
    if (shape.documentEnd !== undefined) {
      if (!matchesAt(EMPTY_AT, text, at)) return false;
    } else if (previous === undefined && (first === 0x20 || first === 0x09)) {
      // Indented text before the first key: not a plain block mapping at column 0.
      if (!matchesAt(EMPTY_AT, text, at)) return false;
    } else if (
      at === lineEnd ||
      first === 0x20 ||
      first === 0x23 ||
      first === 0x0d ||
      (first === 0x2d && previous !== undefined && /^[ \t\r\n]?$/.test(text.charAt(at + 1)))
    ) {
      // Blank, indented, comment and sequence lines belong to the entry above (or to the head).
    } else if (first === 0x2e && matchesAt(DOCUMENT_END_AT, text, at)) {
      if (directives && !sawMarker) return false;
      shape.documentEnd = at;
    } else if (previous === undefined && !sawMarker && first === 0x25 && matchesAt(YAML_DIRECTIVE_AT, text, at)) {
      directives = true;
    } else if (previous === undefined && !sawMarker && first === 0x2d && matchesAt(MARKER_AT, text, at)) {
      sawMarker = true;
    } else {
      const key = matchesAt(ENTRY_AT, text, at) ? keyAt(text, at) : undefined;
      if (key === undefined || (directives && !sawMarker)) return false;
      if (count === hashes.length) hashes = grown(hashes);
      hashes[count++] = hashOf(key);
      if (previous) {
        previous.end = at;
        if (each(previous) === false) return false;
      }
      previous = { key, start: at, end: text.length, line: line + 1 };
    }
    at = lineEnd + 1;
  }
  if (previous && shape.documentEnd !== undefined) previous.end = shape.documentEnd;
  return !(previous && each(previous) === false) && !hasRepeat(hashes.subarray(0, count));
}

function grown(array: Float64Array): Float64Array {
  const out = new Float64Array(array.length * 2);
  out.set(array);
  return out;
}

/**
 * Whether a key may be written twice, from 53-bit hashes of the keys (8 bytes a key, where a set of the
 * keys themselves raised the peak of `setup` on 16 MB by 20 MiB). Equal hashes, a duplicate or (about
 * once in a million files of 100 000 keys) a collision, leave the file to a parse, which tells them apart.
 */
function hasRepeat(hashes: Float64Array): boolean {
  const sorted = hashes.sort();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) return true;
  return false;
}

/** Two 32-bit FNV-style hashes of the UTF-16 units, with different primes, as one 53-bit integer. */
function hashOf(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    a = Math.imul(a ^ text.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ text.charCodeAt(i), 0x5bd1e995);
  }
  return (a >>> 0) * 2 ** 21 + (b >>> 11);
}

/** The key of an entry line (one ENTRY_AT matched at `at`). */
function keyAt(text: string, at: number): string | undefined {
  const quote = text[at];
  if (quote === '"') {
    try {
      return textOf(JSON.parse(text.slice(at, text.indexOf('"', at + 1) + 1)));
    } catch {
      return undefined;
    }
  }
  if (quote === "'") return text.slice(at + 1, text.indexOf("'", at + 1));
  let end = text.indexOf(':', at);
  while (end > at && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return text.slice(at, end);
}
