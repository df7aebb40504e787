/**
 * The one place where cloudgate reads YAML (answers, --config, inventories). The `yaml` library
 * never prints anything itself (its warnings quote the source line, secrets included): every error
 * and warning becomes cloudgate's own message, naming the file, line, column and kind of problem,
 * never the text of the line. Ansible's `!vault`/`!unsafe` tags are kept as `AnsibleTagged`, large
 * integers keep every digit, and duplicate keys are found in linear time.
 */
import { isMap, isScalar, parseDocument, visit, type Document, type ParseOptions, type DocumentOptions, type SchemaOptions, type ToJSOptions } from 'yaml';
import { ANSIBLE_YAML_TAGS } from './ansible-tagged.js';
import { addMerged, isMergeKey, mergeError } from './yaml-merge.js';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';

/** How Ansible reads YAML: version 1.1 (`yes`/`no` are booleans) with its own tags. */
export const ANSIBLE_YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions = {
  version: '1.1',
  customTags: ANSIBLE_YAML_TAGS,
  intAsBigInt: true,
  // The library's own duplicate check compares every key with every earlier one (quadratic);
  // duplicates are found below with one set per mapping instead.
  uniqueKeys: false,
  // 'error': errors are kept (with 'silent' a second document is dropped without one), warnings never printed.
  logLevel: 'error',
  prettyErrors: true,
};

/** A problem found while reading YAML, in cloudgate's words: where, and what kind, never the text. */
export interface YamlNotice {
  code: string;
  line?: number;
  column?: number;
  message: string;
}

export interface LoadedYaml {
  doc: Document.Parsed;
  /** The document as plain values (`AnsibleTagged` for tagged scalars, `undefined` when empty). */
  value: unknown;
  /** Warnings: the file loads, but not the way its author may expect (an unknown tag, say). */
  notices: YamlNotice[];
}

export interface YamlSource {
  /** What the text is, for messages: "the answers file", "the inventory". */
  what: string;
  path: string;
  maxBytes?: number;
  /** What to do about a syntax error (nothing was written). */
  advice?: string;
  /** Plain YAML 1.2 without Ansible's tags: for cloudgate's own files (--config). */
  plain?: boolean;
}

const PLAIN_YAML_OPTIONS: typeof ANSIBLE_YAML_OPTIONS = { ...ANSIBLE_YAML_OPTIONS, version: '1.2', customTags: [] };

const KINDS: Record<string, string> = {
  ALIAS_PROPS: 'an alias cannot carry a tag or anchor',
  BAD_ALIAS: 'an alias names no anchor defined before it',
  BAD_DIRECTIVE: 'unsupported directive',
  BAD_DQ_ESCAPE: 'bad escape in a double-quoted string',
  BAD_INDENT: 'bad indentation',
  BAD_PROP_ORDER: 'anchor and tag in the wrong order',
  BAD_SCALAR_START: 'a plain value cannot start with this character (quote it)',
  BLOCK_AS_IMPLICIT_KEY: 'a block value used as a key',
  BLOCK_IN_FLOW: 'a block value inside [ ] or { }',
  DUPLICATE_KEY: 'duplicate key',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters',
  MISSING_CHAR: 'a closing quote or bracket is missing',
  MULTILINE_IMPLICIT_KEY: 'a key spread over several lines',
  MULTIPLE_ANCHORS: 'several anchors on one value',
  MULTIPLE_DOCS: 'more than one document (---) in the file',
  MULTIPLE_TAGS: 'several tags on one value',
  NON_STRING_KEY: 'a key that is not text',
  TAB_AS_INDENT: 'a tab used for indentation',
  TAG_RESOLVE_FAILED: 'a tag Ansible does not know',
  UNEXPECTED_TOKEN: 'unexpected text (often a missing quote, colon or indentation)',
  BAD_COLLECTION_TYPE: 'a tag that does not fit the value',
};

/** `line 3, column 4` of a library error or warning, without its quoted source line. */
function notice(e: { code: string; message: string; linePos?: [{ line: number; col: number }, ...unknown[]] }): YamlNotice {
  const pos = e.linePos?.[0];
  let message = KINDS[e.code] ?? `YAML problem ${e.code}`;
  if (e.code === 'TAG_RESOLVE_FAILED') {
    // The tag's own name helps ("!vualt"); only a short, plain one is shown.
    const tag = /^Unresolved tag: (!\S{0,40})(?:\s|$)/.exec(e.message)?.[1];
    if (tag && /^![\w!.:/-]*$/.test(tag)) message += ` (${tag})`;
  }
  return { code: e.code, ...(pos ? { line: pos.line, column: pos.col } : {}), message };
}

export function where(n: YamlNotice): string {
  return n.line ? ` (line ${n.line}, column ${n.column})` : '';
}

/**
 * Parses YAML text as Ansible would. A syntax error is a UsageError (exit 2) naming the file and
 * position; warnings are returned as notices for the caller to report or refuse.
 */
export function loadYaml(text: string, source: YamlSource): LoadedYaml {
  const { what, path } = source;
  checkSize(text, source);
  const doc = parseDocument(text, source.plain ? PLAIN_YAML_OPTIONS : ANSIBLE_YAML_OPTIONS);
  const errors = [...doc.errors.map(notice), ...duplicateKeys(doc, text)];
  if (errors.length > 0) {
    const first = errors[0];
    throw new UsageError(`${capitalise(what)} ${escapeLine(path)} is not valid YAML${where(first)}: ${first.message}.`,
      source.advice ?? 'Fix the YAML syntax (indentation, quotes) and run the command again; nothing was written.');
  }
  let value: unknown;
  try {
    value = keepDigits(doc.toJS({ maxAliasCount: 1000 }) as unknown);
  } catch (error) {
    // A merge key (<<) of something other than mappings, or an alias bomb (aliases of aliases expanding to an enormous value).
    throw mergeError(error, `${capitalise(what)} ${escapeLine(path)}`) ?? new UsageError(`${capitalise(what)} ${escapeLine(path)} expands its aliases (*name) to too large a value.`,
      `Write the values out instead of nesting aliases${source.plain ? '' : '; nothing was written'}.`);
  }
  return { doc, value, notices: doc.warnings.map(notice) };
}

function checkSize(text: string, source: YamlSource): void {
  if (source.maxBytes === undefined || text.length <= source.maxBytes / 3 || Buffer.byteLength(text) <= source.maxBytes) return;
  throw new UsageError(`${capitalise(source.what)} ${escapeLine(source.path)} is larger than ${formatMiB(source.maxBytes)}.`,
    'Check that the path names the intended file; cloudgate refuses larger files rather than slowing down.');
}

export function formatMiB(bytes: number): string {
  return `${bytes / 1024 / 1024} MiB`;
}

/**
 * Refuses a file that has warnings: for input whose meaning would otherwise change silently. A plain
 * source (cloudgate's own --config, read by commands that write nothing) takes no tag at all.
 */
export function refuseNotices(notices: YamlNotice[], source: Pick<YamlSource, 'what' | 'path' | 'plain'>): void {
  const first = notices[0];
  if (!first) return;
  if (source.plain) {
    const isTag = first.code === 'TAG_RESOLVE_FAILED';
    const tag = isTag ? /\((![^)]*)\)$/.exec(first.message)?.[1] : undefined;
    throw new UsageError(`${capitalise(source.what)} ${escapeLine(source.path)} has ${isTag ? `a tag${tag ? ` (${tag})` : ''}` : first.message}${where(first)}.`,
      isTag ? 'Remove the tag: this file takes plain YAML values (no !vault, !unsafe or other tags); give a secret in a file of its own (<name>_file) or the environment.'
        : 'Fix it and run the command again.');
  }
  throw new UsageError(`${capitalise(source.what)} ${escapeLine(source.path)} has ${first.message}${where(first)}.`,
    first.code === 'TAG_RESOLVE_FAILED'
      ? 'Remove the tag (Ansible knows !vault and !unsafe); nothing was written.'
      : 'Fix it and run the command again; nothing was written.');
}

/** One set of keys per mapping: linear, where the library's own check is quadratic. */
function duplicateKeys(doc: Document.Parsed, text: string): YamlNotice[] {
  const out: YamlNotice[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = `${typeof pair.key.value}:${String(pair.key.value)}`;
        if (key.endsWith(':<<')) continue;
        if (seen.has(key)) {
          const offset = pair.key.range?.[0];
          out.push({ code: 'DUPLICATE_KEY', ...(offset !== undefined ? linePos(text, offset) : {}), message: KINDS.DUPLICATE_KEY });
        }
        seen.add(key);
      }
    },
  });
  return out.slice(0, 1);
}

function linePos(text: string, offset: number): { line: number; column: number } {
  // Only computed for a file that is refused anyway, so a scan of the text is fine.
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * Integers are parsed as BigInt so no digit is lost: those a JS number holds exactly become numbers,
 * larger ones their exact decimal digits (text to every variable that could hold them).
 */
function keepDigits(value: unknown): unknown {
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
  } else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = keepDigits(record[key]);
  }
  return value;
}

/** Whether the top level is a mapping (or empty), as every file cloudgate reads must be. */
export function isMapping(loaded: LoadedYaml): boolean {
  const contents = loaded.doc.contents;
  return contents === null || isMap(contents) || (isScalar(contents) && (contents.value === null || contents.value === undefined));
}

const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

// ---- top-level mappings (inventories) ----------------------------------------------------------

/** One top-level `name: value` of a mapping, with where it sits in the text. */
export interface YamlEntry {
  key: string;
  value: unknown;
  /** From the start of the key's line to the end of the value's last line (trailing comment included). */
  start: number;
  end: number;
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
  entries: YamlEntry[];
  byKey: Map<string, YamlEntry>;
  values: Record<string, unknown>;
  aliases: YamlCrossAlias[];
  notices: YamlNotice[];
  /** Where new entries go: the end of the mapping, before a `...` document end. */
  insertAt: number;
  /** A flow mapping (`{a: 1}`), which text splices cannot extend. */
  flow: boolean;
}

/** Entries are parsed in pieces of about this size: the parser's memory stays bounded per piece. */
const PIECE_BYTES = 256 * 1024;
const DOCUMENT_END = /^\.\.\.(?:[ \t]|\r?$)/m;

/**
 * Loads a file whose top level must be a mapping (an inventory), in linear time and bounded memory:
 * the text is cut at top-level keys into pieces parsed one by one. Whatever a piece cannot decide
 * alone (an alias to another piece, a syntax error, document markers) falls back to one whole parse,
 * which then gives the exact error.
 */
export function loadYamlMapping(text: string, source: YamlSource, wanted?: (key: string) => boolean): YamlMapping {
  checkSize(text, source);
  if (wanted && text.length > LAZY_BYTES) {
    const lazy = loadWanted(text, wanted);
    if (lazy) return lazy;
  }
  if (text.length > PIECE_BYTES) {
    const pieces = loadInPieces(text, source);
    if (pieces) return pieces;
  }
  return wholeMapping(text, source);
}

function wholeMapping(text: string, source: YamlSource): YamlMapping {
  const loaded = loadYaml(text, source);
  if (!isMapping(loaded)) notAMapping(source);
  const mapping = emptyMapping(text);
  addPiece(mapping, loaded, 0, 0);
  mapping.notices = loaded.notices;
  finish(mapping, loaded.doc, 0);
  return mapping;
}

function loadInPieces(text: string, source: YamlSource): YamlMapping | undefined {
  const mapping = emptyMapping(text);
  let start = 0;
  let line = 0;
  let last: { doc: Document.Parsed; offset: number } | undefined;
  while (start < text.length) {
    const end = nextPieceEnd(text, start);
    const piece = text.slice(start, end);
    // Document markers inside the text: only a whole parse says what they mean.
    if (start > 0 && /^(?:---|%)/m.test(piece)) return undefined;
    if (start === 0 && !oneDocumentStart(piece)) return undefined;
    if (end < text.length && DOCUMENT_END.test(piece)) return undefined;
    const doc = parseDocument(piece, ANSIBLE_YAML_OPTIONS);
    if (doc.errors.length > 0) return undefined;
    const contents = doc.contents;
    if (contents !== null && (!isMap(contents) || contents.anchor || contents.tag || (contents.flow && end < text.length))) return undefined;
    let value: unknown;
    try {
      value = keepDigits(doc.toJS({ maxAliasCount: 1000 }) as unknown);
    } catch {
      return undefined;
    }
    const loaded: LoadedYaml = { doc, value, notices: doc.warnings.map(notice) };
    if (duplicateKeys(doc, piece).length > 0) return undefined;
    if (!addPiece(mapping, loaded, start, line)) return undefined;
    last = { doc, offset: start };
    line += countLines(piece);
    start = end;
  }
  if (last) finish(mapping, last.doc, last.offset);
  return mapping;
}

/**
 * Files above this size are read lazily when the caller says which keys it wants: only those
 * top-level entries are parsed and returned; the others are kept byte for byte, unread.
 */
export const LAZY_BYTES = 1024 * 1024;

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
 * Calls `each` for the top-level entries of a plain block mapping, found by their lines alone (a key
 * at column 0) without parsing, and without copying the lines. The head may hold comments, `%YAML`
 * directives and one `---`; a `...` document end may close the mapping, followed by comments only.
 * Returns false when the text is anything else (other directives, several documents, a flow mapping,
 * a line at column 0 that is no key, a key written twice): then only a parse can tell, and what
 * `each` was given must be dropped.
 */
export function eachTopLevelEntry(text: string, each: (entry: TopLevelEntry) => boolean | void, shape: TopLevelShape = {}): boolean {
  const keys = new SeenKeys();
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
    } else if (at === lineEnd || first === 0x20 || first === 0x23 || first === 0x0d
      || (first === 0x2d && previous !== undefined && /^[ \t\r\n]?$/.test(text.charAt(at + 1)))) {
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
      keys.add(key, at);
      if (previous) {
        previous.end = at;
        if (each(previous) === false) return false;
      }
      previous = { key, start: at, end: text.length, line: line + 1 };
    }
    at = lineEnd + 1;
  }
  if (previous && shape.documentEnd !== undefined) previous.end = shape.documentEnd;
  if (previous && each(previous) === false) return false;
  return !keys.hasDuplicate((start) => keyAt(text, start));
}

/**
 * The keys of a mapping, to find one written twice, in 8 bytes a key (a 32-bit hash and where the key
 * starts) rather than a set of strings: only keys whose hashes are equal are compared as text.
 */
class SeenKeys {
  private hashes: Uint32Array = new Uint32Array(1024);
  private starts: Uint32Array = new Uint32Array(1024);
  private count = 0;

  add(key: string, start: number): void {
    if (this.count === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.starts = grown(this.starts);
    }
    this.hashes[this.count] = hashOf(key);
    this.starts[this.count++] = start;
  }

  /** `keyOf` gives the key starting at an offset. */
  hasDuplicate(keyOf: (start: number) => string | undefined): boolean {
    const sorted = this.hashes.slice(0, this.count).sort();
    const shared = new Set<number>();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) shared.add(sorted[i]!);
    if (shared.size === 0) return false;
    const seen = new Set<string>();
    for (let i = 0; i < this.count; i++) {
      if (!shared.has(this.hashes[i]!)) continue;
      const key = `${this.hashes[i]}:${keyOf(this.starts[i]!)}`;
      if (seen.has(key)) return true;
      seen.add(key);
    }
    return false;
  }
}

function grown(array: Uint32Array): Uint32Array {
  const out = new Uint32Array(array.length * 2);
  out.set(array);
  return out;
}

/** FNV-1a over the UTF-16 units of the text. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The key of an entry line (one ENTRY_AT matched at `at`). */
function keyAt(text: string, at: number): string | undefined {
  const quote = text[at];
  if (quote === '"') {
    try {
      return JSON.parse(text.slice(at, text.indexOf('"', at + 1) + 1)) as string;
    } catch {
      return undefined;
    }
  }
  if (quote === "'") return text.slice(at + 1, text.indexOf("'", at + 1));
  let end = text.indexOf(':', at);
  while (end > at && (text.charCodeAt(end - 1) === 0x20 || text.charCodeAt(end - 1) === 0x09)) end--;
  return text.slice(at, end);
}

/** An anchor (`&a`) or alias (`*a`) may tie an entry to one that is not read. */
const ANCHOR_OR_ALIAS = /(?:^|[\s:,[{-])[&*][^\s,[\]{}]/;

/** Parses only the wanted entries; undefined when the text needs a full read (see eachTopLevelEntry). */
function loadWanted(text: string, wanted: (key: string) => boolean): YamlMapping | undefined {
  const mapping = emptyMapping(text);
  const shape: TopLevelShape = {};
  let whole = false;
  const splittable = eachTopLevelEntry(text, (entry) => {
    if (!wanted(entry.key)) return true;
    const piece = text.slice(entry.start, entry.end);
    const doc = parseDocument(piece, ANSIBLE_YAML_OPTIONS);
    if (doc.errors.length > 0 || !isMap(doc.contents) || doc.contents.items.length !== 1) return !(whole = true);
    if (ANCHOR_OR_ALIAS.test(piece) && !anchorsStayInside(text, entry, doc)) return !(whole = true);
    let value: unknown;
    try {
      value = keepDigits(doc.toJS({ maxAliasCount: 1000 }) as unknown);
    } catch {
      return !(whole = true);
    }
    if (!addPiece(mapping, { doc, value, notices: doc.warnings.map(notice) }, entry.start, entry.line - 1)) whole = true;
    return !whole;
  }, shape);
  if (!splittable || whole) return undefined;
  // New entries go before a `...` document end, never after it.
  if (shape.documentEnd !== undefined) mapping.insertAt = shape.documentEnd;
  return mapping;
}

/**
 * Whether an entry with anchors can be read alone: no alias outside it may name one of its anchors
 * (an alias of its own to an anchor elsewhere already failed its parse). An `*name` anywhere else in
 * the text, even in a comment, sends the file to the whole parse.
 */
function anchorsStayInside(text: string, entry: TopLevelEntry, doc: Document.Parsed): boolean {
  const anchors = new Set<string>();
  visit(doc, {
    Node(_, node) {
      if (node.anchor) anchors.add(node.anchor);
    },
  });
  for (const name of anchors) {
    const alias = `*${name}`;
    for (let at = text.indexOf(alias); at !== -1; at = text.indexOf(alias, at + 1)) {
      if (at >= entry.start && at < entry.end) continue;
      if (!ANCHOR_NAME_CHAR.test(text.charAt(at + alias.length))) return false;
    }
  }
  return true;
}

const ANCHOR_NAME_CHAR = /^[^\s,[\]{}]$/;

/** At most one `---`, and only after directives, comments and blank lines. */
function oneDocumentStart(piece: string): boolean {
  const markers = [...piece.matchAll(/^---(?:[ \t]|\r?$)/gm)];
  if (markers.length === 0) return true;
  if (markers.length > 1) return false;
  return piece.slice(0, markers[0].index).split('\n').every((line) => /^\s*(?:#.*|%.*)?$/.test(line));
}

/** The first line start at or after start + PIECE_BYTES where a top-level key begins (or the end). */
function nextPieceEnd(text: string, start: number): number {
  let at = start + PIECE_BYTES;
  while (at < text.length) {
    const nl = text.indexOf('\n', at - 1);
    if (nl === -1 || nl + 1 >= text.length) return text.length;
    const lineStart = nl + 1;
    if (matchesAt(ENTRY_AT, text, lineStart)) return lineStart;
    at = lineStart + 1;
  }
  return text.length;
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function emptyMapping(text: string): YamlMapping {
  return { text, entries: [], byKey: new Map(), values: {}, aliases: [], notices: [], insertAt: text.length, flow: false };
}

/** Adds a parsed piece (at `offset` in the text, starting on line `line + 1`); false when it must be parsed whole. */
function addPiece(mapping: YamlMapping, loaded: LoadedYaml, offset: number, line: number): boolean {
  const { doc } = loaded;
  const values = (loaded.value ?? {}) as Record<string, unknown>;
  const contents = doc.contents;
  mapping.notices.push(...loaded.notices.map((n) => (n.line ? { ...n, line: n.line + line } : n)));
  if (!isMap(contents)) return true;
  mapping.flow = contents.flow ?? false;
  const pieceEntries: YamlEntry[] = [];
  for (const pair of contents.items) {
    if (!isScalar(pair.key) || !pair.key.range || isMergeKey(pair.key)) continue;
    const key = String(pair.key.value);
    if (mapping.byKey.has(key)) return false;
    const [start, end] = pairRegion(mapping.text, offset, pair.key.range, (pair.value as { range?: Range } | null)?.range);
    const valueNode = pair.value as { range?: Range } | null;
    const entry: YamlEntry = {
      key, value: values[key], start, end, scalar: isScalar(pair.value) && !pair.value.tag && !pair.value.anchor,
      ...(valueNode?.range ? { valueStart: valueNode.range[0] + offset, valueEnd: valueNode.range[1] + offset } : {}),
    };
    pieceEntries.push(entry);
    mapping.byKey.set(key, entry);
    mapping.entries.push(entry);
    mapping.values[key] = values[key];
  }
  if (!addMerged(mapping.values, contents, doc, values, (at) => entryAt(pieceEntries, at + offset)?.key)) return false;
  let outside = false;
  // Without a "*" the text has no alias: no need to walk it.
  if (mapping.text.indexOf('*', offset) === -1 || !pieceHasStar(mapping.text, pieceEntries)) return true;
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
        name: alias.source, start: alias.range[0] + offset, end: alias.range[1] + offset, targetKey: to.key,
        targetValue: keepDigits(target.toJS(doc, { maxAliasCount: 1000 })),
      });
    },
  });
  return !outside;
}

type Range = [number, number, number];

function pieceHasStar(text: string, entries: YamlEntry[]): boolean {
  if (entries.length === 0) return false;
  const star = text.indexOf('*', entries[0].start);
  return star !== -1 && star < entries[entries.length - 1].end;
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

/** New entries go after the mapping's last entry, before a `...` document end if there is one. */
function finish(mapping: YamlMapping, lastDoc: Document.Parsed, offset: number): void {
  const contentEnd = lastDoc.contents?.range ? lastDoc.contents.range[2] + offset : offset;
  const tail = mapping.text.slice(contentEnd);
  const marker = DOCUMENT_END.exec(tail);
  mapping.insertAt = marker ? contentEnd + marker.index : mapping.text.length;
}

function notAMapping(source: YamlSource): never {
  throw new UsageError(`${capitalise(source.what)} ${escapeLine(source.path)} must be a YAML mapping of variable names to values.`,
    'Each line should look like "cluster_issuer_type: acme".');
}
