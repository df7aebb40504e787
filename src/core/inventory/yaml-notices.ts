/**
 * YAML problems in cloudgate's words. The `yaml` library never prints anything itself (its warnings
 * quote the source line, secrets included): every error and warning becomes a notice naming the line,
 * column and kind of problem, never the text of the line. Duplicate keys are found here too, in
 * linear time (one set per mapping).
 */
import { isScalar, visit, type Document } from 'yaml';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';

/** A problem found while reading YAML, in cloudgate's words: where, and what kind, never the text. */
export interface YamlNotice {
  code: string;
  line?: number;
  column?: number;
  message: string;
}

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
export function noticeOf(e: {
  code: string;
  message: string;
  linePos?: [{ line: number; col: number }, ...unknown[]];
}): YamlNotice {
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

/** What a file is and its path, to start a message: "The inventory inv.yml". */
export const named = ({ what, path }: { what: string; path: string }): string =>
  `${what.charAt(0).toUpperCase()}${what.slice(1)} ${escapeLine(path)}`;

/**
 * Refuses a file that has warnings: for input whose meaning would otherwise change silently. A plain
 * source (cloudgate's own --config, read by commands that write nothing) takes no tag at all.
 */
export function refuseNotices(notices: YamlNotice[], source: { what: string; path: string; plain?: boolean }): void {
  const first = notices[0];
  if (!first) return;
  const isTag = first.code === 'TAG_RESOLVE_FAILED';
  if (source.plain) {
    const tag = isTag ? /\((![^)]*)\)$/.exec(first.message)?.[1] : undefined;
    throw new UsageError(
      `${named(source)} has ${isTag ? `a tag${tag ? ` (${tag})` : ''}` : first.message}${where(first)}.`,
      isTag
        ? 'Remove the tag: this file takes plain YAML values (no !vault, !unsafe or other tags); give a secret in a file of its own (<name>_file) or the environment.'
        : 'Fix it and run the command again.',
    );
  }
  throw new UsageError(
    `${named(source)} has ${first.message}${where(first)}.`,
    isTag
      ? 'Remove the tag (Ansible knows !vault and !unsafe); nothing was written.'
      : 'Fix it and run the command again; nothing was written.',
  );
}

/** The first key written twice in one mapping, with one set of keys per mapping. */
export function duplicateKeys(doc: Document.Parsed, text: string): YamlNotice[] {
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
          out.push({
            code: 'DUPLICATE_KEY',
            ...(offset !== undefined ? linePos(text, offset) : {}),
            message: KINDS.DUPLICATE_KEY,
          });
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return out;
}

/** The line and column (both from 1) of an offset of the text. */
export function linePos(text: string, offset: number): { line: number; column: number } {
  // Only computed for a file that is refused anyway, so a scan of the text is fine.
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return { line, column: offset - text.lastIndexOf('\n', offset - 1) };
}
