/**
 * The one place where cloudgate reads YAML (answers, --config, inventories): `loadYaml` for a whole
 * document, `loadYamlMapping` for a top-level mapping (an inventory) with where each entry sits. Errors
 * and warnings are cloudgate's own messages (yaml-notices.ts), Ansible's `!vault`/`!unsafe` tags are
 * kept as `AnsibleTagged`, large integers keep every digit (yaml-ansible.ts); a large mapping is read
 * in pieces (yaml-large.ts), within the size limits of yaml-limits.ts.
 */
import { isMap, isScalar, parseDocument } from 'yaml';
import { UsageError } from '../errors.js';
import { ANSIBLE_YAML_OPTIONS, PLAIN_YAML_OPTIONS, plainValue } from './yaml-ansible.js';
import { loadLargeMapping } from './yaml-large.js';
import { checkSize, LAZY_BYTES, PIECE_BYTES } from './yaml-limits.js';
import { addPiece, emptyMapping, type LoadedYaml, type YamlMapping } from './yaml-mapping.js';
import { mergeError } from './yaml-merge.js';
import { duplicateKeys, named, noticeOf, where } from './yaml-notices.js';

export { ANSIBLE_YAML_OPTIONS } from './yaml-ansible.js';
export { formatMiB } from './yaml-limits.js';
export { refuseNotices, where, type YamlNotice } from './yaml-notices.js';
export type { LoadedYaml, YamlMapping } from './yaml-mapping.js';

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

/**
 * Parses YAML text as Ansible would. A syntax error is a UsageError (exit 2) naming the file and
 * position; warnings are returned as notices for the caller to report or refuse.
 */
export function loadYaml(text: string, source: YamlSource): LoadedYaml {
  checkSize(text, source);
  const doc = parseDocument(text, source.plain ? PLAIN_YAML_OPTIONS : ANSIBLE_YAML_OPTIONS);
  const errors = [...doc.errors.map(noticeOf), ...duplicateKeys(doc, text)];
  if (errors.length > 0) {
    const first = errors[0];
    throw new UsageError(
      `${named(source)} is not valid YAML${where(first)}: ${first.message}.`,
      source.advice ?? 'Fix the YAML syntax (indentation, quotes) and run the command again; nothing was written.',
    );
  }
  let value: unknown;
  try {
    value = plainValue(doc);
  } catch (error) {
    // A merge key (<<) of something other than mappings, or an alias bomb (aliases of aliases expanding to an enormous value).
    throw (
      mergeError(error, named(source)) ??
      new UsageError(
        `${named(source)} expands its aliases (*name) to too large a value.`,
        `Write the values out instead of nesting aliases${source.plain ? '' : '; nothing was written'}.`,
      )
    );
  }
  return { doc, value, notices: doc.warnings.map(noticeOf) };
}

/** Whether the top level is a mapping (or empty), as every file cloudgate reads must be. */
export function isMapping(loaded: LoadedYaml): boolean {
  const contents = loaded.doc.contents;
  return (
    contents === null ||
    isMap(contents) ||
    (isScalar(contents) && (contents.value === null || contents.value === undefined))
  );
}

/**
 * Loads a file whose top level must be a mapping (an inventory), in linear time and bounded memory.
 * Over LAZY_BYTES, only the entries `wanted` names are parsed (all of them without `wanted`).
 */
export function loadYamlMapping(text: string, source: YamlSource, wanted?: (key: string) => boolean): YamlMapping {
  checkSize(text, source);
  if (text.length > PIECE_BYTES) {
    const large = loadLargeMapping(text, wanted && text.length > LAZY_BYTES ? wanted : () => true, (piece) => {
      try {
        return loadYaml(piece, source);
      } catch {
        return undefined; // the whole parse below names the problem
      }
    });
    if (large) return large;
  }
  const loaded = loadYaml(text, source);
  if (!isMapping(loaded)) {
    throw new UsageError(
      `${named(source)} must be a YAML mapping of variable names to values.`,
      'Each line should look like "cluster_issuer_type: acme".',
    );
  }
  const mapping = emptyMapping(text);
  addPiece(mapping, loaded, 0, 0);
  // New entries go after the mapping's last entry, before a `...` document end if there is one.
  const contentEnd = loaded.doc.contents?.range?.[2] ?? 0;
  const marker = DOCUMENT_END.exec(text.slice(contentEnd));
  mapping.insertAt = marker ? contentEnd + marker.index : text.length;
  return mapping;
}

const DOCUMENT_END = /^\.\.\.(?:[ \t]|\r?$)/m;
