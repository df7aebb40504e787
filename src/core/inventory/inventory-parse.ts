/**
 * The one parse of each inventory text (ParsedCache): a file read again unchanged, or a text parsed
 * before, is not parsed again. Files over a megabyte are read only for the keys cloudgate reads.
 */
import { statSync, type Stats } from 'node:fs';
import { OWNED_PREFIXES, VARIABLES } from '../config/variables.js';
import { readRegularFileIfExistsSync, type SafeReadOptions } from '../safe-read.js';
import { ParsedCache } from './parsed-cache.js';
import { checkedVarsText } from './text-check.js';
import { loadYamlMapping, type YamlMapping } from './yaml-load.js';

/** Far above any real inventory file; the read and every update stay linear in the size. */
export const MAX_INVENTORY_BYTES = 32 * 1024 * 1024;

/** The one cache of inventory parses: room for the largest inventory and its update. */
const parsed = new ParsedCache(2 * MAX_INVENTORY_BYTES);

/**
 * The keys cloudgate reads in a file over 1 MiB: the table's variables (and their neutral aliases), keys
 * that look like them (so a misspelling is still found) and host names. Others are kept, unread.
 */
const READ_KEYS = new Set(VARIABLES.flatMap((row) => [row.name, ...(row.alias ? [row.alias] : [])]));
const isReadKey = (key: string): boolean =>
  READ_KEYS.has(key) || OWNED_PREFIXES.some((p) => key.startsWith(p)) || key.endsWith('_host');

/** `info`: the stats of the file the text was just read from. */
export function loadMapping(text: string, path: string, info?: Stats): YamlMapping {
  const hit = parsed.byText(text);
  if (hit) {
    if (info) parsed.add(hit, info);
    return hit;
  }
  const mapping = loadYamlMapping(text, { what: 'the inventory', path, maxBytes: MAX_INVENTORY_BYTES }, isReadKey);
  parsed.add(mapping, info);
  return mapping;
}

/**
 * A regular file's parse (see readRegularFileIfExistsSync), without reading it again when it is
 * unchanged since it was last read; undefined when nothing exists at the path.
 */
export function readParsed(path: string, options: SafeReadOptions): { mapping: YamlMapping; info: Stats } | undefined {
  const info = statIfAny(path);
  const hit = info?.isFile() ? parsed.byFile(info) : undefined;
  if (hit && info) return { mapping: hit, info };
  const read = readRegularFileIfExistsSync(path, { maxBytes: MAX_INVENTORY_BYTES, ...options });
  return read && { mapping: loadMapping(checkedVarsText(read, options.what, path), path, read.info), info: read.info };
}

function statIfAny(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined; // the read names the problem
  }
}
