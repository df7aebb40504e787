/**
 * Reading and updating the YAML inventory. Updates are text splices located with the `yaml`
 * Document API (node ranges): every byte outside the touched keys stays as it was, comments and
 * ordering included. YAML 1.1 is used throughout because Ansible reads inventories as YAML 1.1
 * (`yes`/`no` are booleans there, so such strings must be quoted when written).
 */
import { statSync, type Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { stringify } from 'yaml';
import { ANSIBLE_YAML_TAGS, isTagged } from './ansible-tagged.js';
import { UsageError } from '../errors.js';
import { escapeLine } from '../escape.js';
import { readRegularFileIfExistsSync, type SafeReadOptions } from '../safe-read.js';
import { ParsedCache } from './parsed-cache.js';
import { checkedVarsText } from './text-check.js';
import { isSet } from '../config/validate.js';
import { VARIABLES, variable } from '../config/variables.js';
import { neutralName, neutralView, platformName, type NamesView } from '../config/platform-names.js';
import { loadYamlMapping, refuseNotices, type YamlMapping, type YamlNotice } from './yaml-load.js';

const YAML_OPTIONS = { version: '1.1', lineWidth: 0, customTags: ANSIBLE_YAML_TAGS } as const;

/** Far above any real inventory file; the read and every update stay linear in the size. */
export const MAX_INVENTORY_BYTES = 32 * 1024 * 1024;

export const INVENTORY_HEADER = `# Certificate settings of the platform (certificates of the API endpoints).
# Written by cloudgate setup; "cloudgate schema" prints the JSON Schema of these variables.
`;

export interface InventoryFile {
  path: string;
  exists: boolean;
  text: string;
  values: Record<string, unknown>;
  /** Permission bits of the existing file. */
  mode?: number;
}

/** The one cache of inventory parses: room for the largest inventory and its update. */
const parsed = new ParsedCache(2 * MAX_INVENTORY_BYTES);

/**
 * The keys cloudgate reads in a file over 1 MiB: the table's variables (either naming), keys that
 * look like them (so a misspelling is still found) and host names. Others are kept, unread.
 */
const READ_KEYS = new Set(VARIABLES.flatMap((row) => [row.name, platformName(row.name)]));
const READ_PREFIXES = /^(?:cluster_issuer|cloud_helm|openstack_helm_ingress|platform_ingress|atmosphere_ingress)/;
const isReadKey = (key: string): boolean => READ_KEYS.has(key) || READ_PREFIXES.test(key) || key.endsWith('_host');

/** `info`: the stats of the file the text was just read from. */
function loadMapping(text: string, path: string, info?: Stats): YamlMapping {
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
function readParsed(path: string, options: SafeReadOptions): { mapping: YamlMapping; info: Stats } | undefined {
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

/** Parses inventory text; bad YAML or a top level that is not a mapping is a UsageError naming the file. */
export function parseInventory(text: string, path: string): Record<string, unknown> {
  return loadMapping(text, path).values;
}

/**
 * Reads the inventory file setup and regenerate update: only a regular file (a FIFO, a device or a
 * folder is refused at once, exit 2), at most MAX_INVENTORY_BYTES. A missing file is an empty inventory.
 */
export async function readInventoryFile(path: string): Promise<InventoryFile> {
  const read = readParsed(path, {
    what: 'the inventory',
    folderAdvice: `Setup writes one file: give it, e.g. --inventory ${join(path, 'group_vars/all/certificates.yml')}.`,
  });
  if (!read) return { path, exists: false, text: '', values: {} };
  const { mapping, info } = read;
  // A tag Ansible does not know makes the file unloadable for Ansible: never build on it.
  refuseNotices(mapping.notices, { what: 'the inventory', path });
  return { path, exists: true, text: mapping.text, values: mapping.values, mode: info.mode & 0o777 };
}

/** The values of one vars file of an inventory (`what` names it in messages); undefined when it is missing. */
export function readVarsFile(path: string, what: string): Record<string, unknown> | undefined {
  return readParsed(path, { what })?.mapping.values;
}

export interface InventoryChange {
  /** Variables to set (added at the end in table order when new, otherwise changed in place). */
  set: Record<string, unknown>;
  /** Variables to delete (with the help comment cloudgate wrote above them). */
  remove: string[];
}

type Edit = TextEdit;

/**
 * Applies a change to inventory text. Keys whose value is already equal are left byte for byte.
 * An alias (`*name`) elsewhere whose anchor is in a removed or replaced value gets that value
 * written in its place, so the file still loads and other keys keep their values. The result is
 * parsed again before it is returned: a text that would not load is never written.
 */
export function updateInventoryText(text: string, change: InventoryChange): string {
  return inventoryEdits(text, change).text;
}

/** A splice of the text: [start, end) replaced by `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** As updateInventoryText, with the splices it made (sorted, in the old text's offsets). */
export function inventoryEdits(text: string, change: InventoryChange): { text: string; edits: TextEdit[] } {
  const mapping = loadMapping(text, 'the inventory');
  if (mapping.flow) {
    throw new UsageError('The inventory must be a block-style YAML mapping ("name: value" lines) to be updated.');
  }
  const edits: Edit[] = [];
  const touched = new Set<string>();
  for (const name of change.remove) {
    const entry = mapping.byKey.get(name);
    if (!entry) continue;
    touched.add(name);
    edits.push({ start: ownCommentStart(text, entry.start, name), end: entry.end, text: '' });
  }
  const added: string[] = [];
  for (const [name, value] of Object.entries(change.set)) {
    const entry = mapping.byKey.get(name);
    if (!entry) {
      added.push(name);
      continue;
    }
    if (sameValue(entry.value, value)) continue;
    touched.add(name);
    const oneLine = (s: string) => !s.includes('\n');
    const { valueStart, valueEnd } = entry;
    if (entry.scalar && valueStart !== undefined && valueEnd !== undefined && valueStart < valueEnd && isScalarValue(value)
      && oneLine(text.slice(valueStart, valueEnd)) && oneLine(String(value))) {
      // Keep a trailing "# comment" on the line: replace only the value itself.
      edits.push({ start: valueStart, end: valueEnd, text: serializePair(name, value).replace(/^[^:]*:\s?/, '').trimEnd() });
    } else {
      edits.push({ start: entry.start, end: entry.end, text: serializePair(name, value) });
    }
  }
  edits.push(...inlinedAliases(mapping, touched, edits));
  if (added.length > 0) {
    const order = new Map(VARIABLES.map((v, i) => [v.name, i]));
    added.sort((a, b) => (order.get(neutralName(a)) ?? 1e9) - (order.get(neutralName(b)) ?? 1e9));
    const pairs = added.map((name) => helpComment(name) + serializePair(name, change.set[name])).join('');
    if (text.trim() === '') {
      edits.push({ start: 0, end: text.length, text: `${INVENTORY_HEADER}\n${pairs}` });
    } else {
      // Before a `...` document end, never after it.
      const at = mapping.insertAt;
      const newline = at > 0 && text[at - 1] !== '\n' ? '\n' : '';
      edits.push({ start: at, end: at, text: `${newline}\n${pairs}` });
    }
  }
  if (edits.length === 0) return { text, edits };
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: string[] = [];
  let at = 0;
  for (const edit of edits) {
    parts.push(text.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  parts.push(text.slice(at));
  const out = parts.join('');
  if (out !== text) checkWritten(out, edits);
  return { text: out, edits };
}

/** Edits that write an anchored value in place of its aliases, where the anchor's entry changes. */
function inlinedAliases(mapping: YamlMapping, touched: Set<string>, edits: Edit[]): Edit[] {
  const out: Edit[] = [];
  for (const alias of mapping.aliases) {
    if (!touched.has(alias.targetKey)) continue;
    if (edits.some((e) => e.start <= alias.start && alias.end <= e.end)) continue;
    const inline = flowYaml(alias.targetValue);
    if (inline === undefined) {
      throw new UsageError(`The inventory uses the alias *${escapeLine(alias.name)}, whose anchor is in ${alias.targetKey}, which this change removes or replaces.`,
        `Write the value out in place of *${escapeLine(alias.name)} (or move the anchor to another key) and run the command again; nothing was written.`);
    }
    out.push({ start: alias.start, end: alias.end, text: inline });
  }
  return out;
}

/** A value as YAML flow text that is valid wherever an alias can stand; undefined for values without one. */
function flowYaml(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return quoted(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
  if (isTagged(value)) return `${value.tag} ${quoted(value.text)}`;
  if (Array.isArray(value)) {
    const items = value.map(flowYaml);
    return items.includes(undefined) ? undefined : `[${items.join(', ')}]`;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const items = Object.entries(value as Record<string, unknown>).map(([k, v]) => [quoted(k), flowYaml(v)]);
    return items.some(([, v]) => v === undefined) ? undefined : `{${items.map(([k, v]) => `${k}: ${v}`).join(', ')}}`;
  }
  return undefined;
}

/** A double-quoted YAML string; also escapes the characters YAML 1.1 reads as line breaks. */
function quoted(text: string): string {
  return JSON.stringify(text).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whole files up to this size are parsed again before writing; larger ones only their new entries. */
const FULL_CHECK_BYTES = 1024 * 1024;

/**
 * Parses what is about to be written; cloudgate never writes a file it cannot read back. In a large
 * file the untouched text is known to load already: its new entries are parsed on their own, so an
 * update stays one parse of the file.
 */
function checkWritten(out: string, edits: Edit[]): void {
  try {
    if (out.length <= FULL_CHECK_BYTES) loadMapping(out, 'the updated inventory');
    else loadYamlMapping(edits.filter((e) => e.text.endsWith('\n')).map((e) => e.text).join(''), { what: 'the updated inventory', path: 'the new entries' });
  } catch (error) {
    throw new UsageError(`cloudgate would write an inventory that does not load as YAML: ${(error as Error).message}`,
      'Nothing was written. Please report this with the shape of the inventory (not its values).');
  }
}

const isScalarValue = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Equal as Ansible would see them: tags and every digit count (JSON alone hides a vault's text). */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(comparable(a)) === JSON.stringify(comparable(b));
}

function comparable(value: unknown): unknown {
  if (isTagged(value)) return { '!tag': value.tag, text: value.text };
  if (typeof value === 'bigint') return { '!int': value.toString() };
  if (value instanceof Date) return { '!timestamp': value.toISOString() };
  if (value instanceof Set) return { '!set': [...value].map(comparable) };
  if (value instanceof Map) return { '!map': [...value].map(([k, v]) => [comparable(k), comparable(v)]) };
  if (Array.isArray(value)) return value.map(comparable);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, comparable(v)]));
  }
  return value;
}

/** `name: value\n` as YAML 1.1, block literal for multi-line text, Ansible's tags kept. */
export function serializePair(name: string, value: unknown): string {
  return stringify({ [name]: value }, YAML_OPTIONS);
}

function helpComment(name: string): string {
  const row = variable(neutralName(name));
  return row ? `# ${row.help}\n` : '';
}

/** The start of the help comment line cloudgate wrote above a key, so removing the key removes it too. */
function ownCommentStart(text: string, lineStart: number, name: string): number {
  const comment = helpComment(name);
  if (!comment) return lineStart;
  const before = text.slice(Math.max(0, lineStart - comment.length), lineStart);
  return before === comment ? lineStart - comment.length : lineStart;
}

/** Whether any secret variable of the table is set in these values. */
export function holdsSecret(values: Record<string, unknown>): boolean {
  return VARIABLES.some((row) => row.secret && isSet(values[row.name]));
}

// ---- inventory folders (doctor) ----------------------------------------------------------------

export interface InventoryTree {
  /** Every file read, with its values and its YAML warnings (an unknown tag, say), in the order Ansible loads them. */
  files: { path: string; values: Record<string, unknown>; notices: YamlNotice[] }[];
  /** The values of all files together (the last file wins, as in Ansible's alphabetical loading). */
  values: Record<string, unknown>;
  /** The file each variable of `values` came from (the last file defining it). */
  sources: Record<string, string>;
  /** Variables defined in more than one file with different values. */
  conflicts: { name: string; files: string[] }[];
  /** Folders reached again through a symbolic link (a loop), not read a second time. */
  loops: string[];
}

/** An inventory path that is not a regular file or folder (a pipe, a device): exit 2, never a hang. */
export class InventoryInputError extends UsageError {}

/**
 * Reads an inventory file, or a folder: the vars files under its `group_vars/` (or under the folder
 * itself when it has no `group_vars/`, e.g. `group_vars/all`). Like Ansible, symbolic links to files
 * and folders are followed; a link back to a folder being read is a loop and is skipped.
 */
export async function readInventoryTree(path: string): Promise<InventoryTree> {
  const info = await stat(path);
  let paths = [path];
  const loops: string[] = [];
  if (info.isDirectory()) {
    const groupVars = basename(path) === 'group_vars' ? path : join(path, 'group_vars');
    paths = await isDirectory(groupVars) ? await groupVarsFiles(groupVars, loops) : await yamlFilesUnder(path, loops);
  } else if (!info.isFile()) {
    throw notRegular(path, info);
  }
  const files: InventoryTree['files'] = [];
  for (const file of paths) {
    const read = readParsed(file, { what: 'the inventory file' });
    if (!read) throw new UsageError(`Cannot read the inventory file ${file}: ENOENT.`, 'Check the path and its permissions.');
    files.push({ path: file, values: read.mapping.values, notices: read.mapping.notices });
  }
  const values: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  const seen = new Map<string, { value: unknown; files: string[]; differs: boolean }>();
  for (const file of files) {
    for (const [name, value] of Object.entries(file.values)) {
      const entry = seen.get(name);
      if (entry) {
        entry.files.push(file.path);
        if (!sameValue(entry.value, value)) entry.differs = true;
      } else {
        seen.set(name, { value, files: [file.path], differs: false });
      }
      values[name] = value;
      sources[name] = file.path;
    }
  }
  const conflicts = [...seen].filter(([, e]) => e.differs).map(([name, e]) => ({ name, files: e.files.map((f) => relative(path, f) || f) }));
  return { files, values, sources, conflicts, loops };
}

/**
 * The inventory values of a doctor run (an absent default inventory is empty), with the platform's
 * own names read as the neutral ones every check uses. Each check asks; the files are read and parsed
 * once (see ParsedCache).
 */
export async function inventoryValues(input: { inventoryPath: string; inventoryExplicit: boolean }): Promise<Record<string, unknown>> {
  return (await inventoryView(input)).values;
}

/** As inventoryValues, with the variable names the inventory spells them in (`--names` when given). */
export function inventoryView(input: { inventoryPath: string; inventoryExplicit: boolean; names?: string }): Promise<NamesView> {
  const names = input.names;
  return readInventoryTree(input.inventoryPath).then(
    (tree) => neutralView(tree.values, input.inventoryPath, names),
    (error) => {
      if (error instanceof UsageError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !input.inventoryExplicit) return neutralView({}, input.inventoryPath, names);
      throw new UsageError(`Cannot read the inventory ${input.inventoryPath}: ${code ?? (error as Error).message}.`,
        'Give --inventory a YAML file or an inventory folder with group_vars/.');
    },
  );
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isDirectory(), () => false);
}

const VARS_EXTENSIONS = ['.yml', '.yaml', '.json'];

/**
 * The vars files of every group in a `group_vars` folder. As Ansible does for each group, the first of
 * `<group>` (a folder or a file), `<group>.yml`, `<group>.yaml`, `<group>.json` that exists is read and
 * the others are ignored.
 */
export async function groupVarsFiles(dir: string, loops: string[] = []): Promise<string[]> {
  const names = (await readdir(dir)).filter(isVarsName).sort();
  const groups = new Map<string, string[]>();
  for (const name of names) {
    const ext = extname(name);
    const group = VARS_EXTENSIONS.includes(ext) ? name.slice(0, -ext.length) : name;
    groups.set(group, [...(groups.get(group) ?? []), name]);
  }
  const chosen: string[] = [];
  for (const [group, candidates] of groups) {
    const first = ['', ...VARS_EXTENSIONS].map((ext) => group + ext).find((n) => candidates.includes(n));
    if (first) chosen.push(first);
  }
  return collectVarsFiles(dir, chosen.sort(), [await realpath(dir)], loops);
}

/** The vars files under a folder, in Ansible's order: names sorted in each folder, sub-folders in place. */
async function yamlFilesUnder(dir: string, loops: string[]): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isVarsName).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return collectVarsFiles(dir, names, [await realpath(dir)], loops);
}

/** Hidden files and editor backups are skipped, as Ansible skips them. */
function isVarsName(name: string): boolean {
  return !name.startsWith('.') && !name.endsWith('~');
}

/** `ancestors`: the real paths of the folders being read, to stop at a link that leads back to one. */
async function collectVarsFiles(dir: string, names: string[], ancestors: string[], loops: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let info;
    try {
      info = await stat(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') continue; // a dangling link: Ansible skips it too
      if (code === 'ELOOP') {
        loops.push(path);
        continue;
      }
      throw error;
    }
    const ext = extname(name).toLowerCase();
    if (info.isDirectory()) {
      if (ext) continue;
      const real = await realpath(path);
      if (ancestors.includes(real)) {
        loops.push(path);
        continue;
      }
      const inner = (await readdir(path)).filter(isVarsName).sort();
      out.push(...await collectVarsFiles(path, inner, [...ancestors, real], loops));
    } else if (VARS_EXTENSIONS.includes(ext)) {
      if (!info.isFile()) throw notRegular(path, info);
      out.push(path);
    }
  }
  return out;
}

function notRegular(path: string, info: Stats): InventoryInputError {
  const kind = info.isFIFO() ? 'a pipe' : info.isSocket() ? 'a socket' : info.isCharacterDevice() || info.isBlockDevice() ? 'a device' : 'not a file';
  return new InventoryInputError(`The inventory ${path} is not a regular file (${kind}).`,
    'Give --inventory a YAML file or an inventory folder; pipes and devices are refused.');
}

/** The vars files Ansible reads from one group's folder (`group_vars/<group>/`), in its order. */
export async function groupFolderFiles(dir: string): Promise<string[]> {
  return yamlFilesUnder(dir, []);
}
