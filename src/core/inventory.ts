/**
 * Reading and updating the YAML inventory. Updates are text splices located with the `yaml`
 * Document API (node ranges): every byte outside the touched keys stays as it was, comments and
 * ordering included. YAML 1.1 is used throughout because Ansible reads inventories as YAML 1.1
 * (`yes`/`no` are booleans there, so such strings must be quoted when written).
 */
import type { Stats } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import { isMap, isScalar, parseDocument, stringify, type Pair } from 'yaml';
import { ANSIBLE_YAML_TAGS, isTagged } from './ansible-tagged.js';
import { UsageError } from './errors.js';
import { readRegularFileSync } from './safe-read.js';
import { isSet } from './validate.js';
import { VARIABLES, variable } from './variables.js';

const YAML_OPTIONS = { version: '1.1', lineWidth: 0, customTags: ANSIBLE_YAML_TAGS } as const;

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

/** Parses inventory text; bad YAML or a top level that is not a mapping is a UsageError naming the file. */
export function parseInventory(text: string, path: string): Record<string, unknown> {
  const doc = parseDocument(text, YAML_OPTIONS);
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const where = e.linePos?.[0] ? ` (line ${e.linePos[0].line}, column ${e.linePos[0].col})` : '';
    throw new UsageError(`The inventory ${path} is not valid YAML${where}: ${e.message.split('\n')[0]}`,
      'Fix the YAML syntax (indentation, quotes) and run the command again; nothing was written.');
  }
  const value = doc.toJS() as unknown;
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`The inventory ${path} must be a YAML mapping of variable names to values.`,
      'Each line should look like "cluster_issuer_type: acme".');
  }
  return value as Record<string, unknown>;
}

export async function readInventoryFile(path: string): Promise<InventoryFile> {
  let text: string;
  let mode: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) {
      throw new UsageError(`The inventory ${path} is a folder; setup writes one file.`,
        `Give the file to write, e.g. --inventory ${join(path, 'group_vars/all/certificates.yml')}.`);
    }
    mode = info.mode & 0o777;
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, exists: false, text: '', values: {} };
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot read the inventory ${path}: ${(error as NodeJS.ErrnoException).code ?? error}.`);
  }
  return { path, exists: true, text, values: parseInventory(text, path), mode };
}

export interface InventoryChange {
  /** Variables to set (added at the end in table order when new, otherwise changed in place). */
  set: Record<string, unknown>;
  /** Variables to delete (with the help comment cloudgate wrote above them). */
  remove: string[];
}

/** Applies a change to inventory text. Keys whose value is already equal are left byte for byte. */
export function updateInventoryText(text: string, change: InventoryChange): string {
  const doc = parseDocument(text, YAML_OPTIONS);
  if (doc.errors.length > 0) parseInventory(text, 'file');
  const contents = doc.contents;
  if (contents !== null && (!isMap(contents) || contents.flow)) {
    throw new UsageError('The inventory must be a block-style YAML mapping ("name: value" lines) to be updated.');
  }
  const pairs = new Map<string, Pair>();
  for (const pair of contents?.items ?? []) {
    if (isScalar(pair.key)) pairs.set(String(pair.key.value), pair as Pair);
  }
  const current = (doc.toJS() ?? {}) as Record<string, unknown>;

  // Splices from the end backwards so earlier offsets stay valid.
  const edits: { start: number; end: number; text: string }[] = [];
  for (const name of change.remove) {
    const pair = pairs.get(name);
    if (!pair) continue;
    const [start, end] = pairRegion(text, pair);
    edits.push({ start: ownCommentStart(text, start, name), end, text: '' });
  }
  const added: string[] = [];
  for (const [name, value] of Object.entries(change.set)) {
    const pair = pairs.get(name);
    if (!pair) {
      added.push(name);
      continue;
    }
    if (sameValue(current[name], value)) continue;
    const node = pair.value as { range?: [number, number, number] } | null;
    const oneLine = (s: string) => !s.includes('\n');
    if (isScalar(pair.value) && node?.range && node.range[0] < node.range[1] && isScalarValue(value)
      && oneLine(text.slice(node.range[0], node.range[1])) && oneLine(String(value))) {
      // Keep a trailing "# comment" on the line: replace only the value itself.
      edits.push({ start: node.range[0], end: node.range[1], text: serializePair(name, value).replace(/^[^:]*:\s?/, '').trimEnd() });
    } else {
      const [start, end] = pairRegion(text, pair);
      edits.push({ start, end, text: serializePair(name, value) });
    }
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  }
  if (added.length > 0) {
    const order = new Map(VARIABLES.map((v, i) => [v.name, i]));
    added.sort((a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9));
    if (out.trim() === '') out = INVENTORY_HEADER;
    else if (!out.endsWith('\n')) out += '\n';
    out += '\n' + added.map((name) => helpComment(name) + serializePair(name, change.set[name])).join('');
  }
  return out;
}

function isScalarValue(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (isTagged(a) || isTagged(b)) return isTagged(a) && isTagged(b) && a.tag === b.tag && a.text === b.text;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** `name: value\n` as YAML 1.1, block literal for multi-line text. */
export function serializePair(name: string, value: unknown): string {
  return stringify({ [name]: value }, YAML_OPTIONS);
}

function helpComment(name: string): string {
  const row = variable(name);
  return row ? `# ${row.help}\n` : '';
}

/** From the start of the key's line to the end of the value's last line (trailing comment included). */
function pairRegion(text: string, pair: Pair): [number, number] {
  const key = pair.key as { range: [number, number, number] };
  const value = pair.value as { range?: [number, number, number] } | null;
  const start = text.lastIndexOf('\n', key.range[0] - 1) + 1;
  let end = value?.range ? Math.max(value.range[2], key.range[2]) : key.range[2];
  if (end > 0 && text[end - 1] !== '\n') {
    const nl = text.indexOf('\n', end);
    end = nl === -1 ? text.length : nl + 1;
  }
  return [start, end];
}

/** The start of the help comment line cloudgate wrote above a key, so removing the key removes it too. */
function ownCommentStart(text: string, lineStart: number, name: string): number {
  const comment = helpComment(name);
  if (!comment) return lineStart;
  const before = text.slice(0, lineStart);
  return before.endsWith(comment) ? lineStart - comment.length : lineStart;
}

/** Whether any secret variable of the table is set in these values. */
export function holdsSecret(values: Record<string, unknown>): boolean {
  return VARIABLES.some((row) => row.secret && isSet(values[row.name]));
}

// ---- inventory folders (doctor) ----------------------------------------------------------------

export interface InventoryTree {
  /** Every file read, with its values, in the order Ansible loads them. */
  files: { path: string; values: Record<string, unknown> }[];
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
    files.push({ path: file, values: parseInventory(readRegularFileSync(file, { what: 'the inventory file' }), file) });
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

const valuesByInput = new WeakMap<object, Promise<Record<string, unknown>>>();

/**
 * The inventory's variables as one flat mapping, for checks that only read them; read once per
 * doctor run (keyed by the run's input object), however many areas ask. A missing default inventory
 * gives `{}`; a missing `--inventory` path is a usage error.
 */
export function inventoryValues(input: { inventoryPath: string; inventoryExplicit: boolean }): Promise<Record<string, unknown>> {
  let values = valuesByInput.get(input);
  if (!values) {
    values = readInventoryTree(input.inventoryPath).then(
      (tree) => tree.values,
      (error) => {
        if (error instanceof UsageError) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && !input.inventoryExplicit) return {};
        throw new UsageError(`Cannot read the inventory ${input.inventoryPath}: ${code ?? (error as Error).message}.`,
          'Give --inventory a YAML file or an inventory folder with group_vars/.');
      },
    );
    valuesByInput.set(input, values);
  }
  return values;
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
async function groupVarsFiles(dir: string, loops: string[]): Promise<string[]> {
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
