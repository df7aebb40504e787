/**
 * Reading the YAML inventory: one file (setup and regenerate update it; updates in inventory-edit.ts),
 * or an inventory folder's vars files in Ansible's order (doctor). Each text is parsed once
 * (inventory-parse.ts).
 */
import { existsSync, statSync, type Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';
import { isSet } from '../config/validate.js';
import { VARIABLES } from '../config/variables.js';
import { namesView, type NamesView } from '../config/neutral-names.js';
import { UsageError, messageOf, codeOf } from '../errors.js';
import { sameValue } from './inventory-edit.js';
import { loadMapping, readParsed } from './inventory-parse.js';
import { refuseNotices, type YamlNotice } from './yaml-load.js';
import type { MergeSources } from './yaml-merge.js';
import { InventoryInputError } from './inventory-errors.js';
import {
  isHostsFile,
  isVarsFileName,
  readLayout,
  readVarsFile as readLayoutVarsFile,
  type InventoryLayout,
} from './inventory-layout.js';
import type { VaultKeyring } from './vault-options.js';

export {
  INVENTORY_HEADER,
  inventoryEdits,
  serializePair,
  updateInventoryText,
  type InventoryChange,
  type TextEdit,
} from './inventory-edit.js';
export { MAX_INVENTORY_BYTES } from './inventory-parse.js';

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

/** Whether any secret variable of the table is set in these values. */
export function holdsSecret(values: Record<string, unknown>): boolean {
  return VARIABLES.some((row) => row.secret && isSet(values[row.name]));
}

// ---- inventory folders (doctor) ----------------------------------------------------------------

export interface InventoryTree {
  /**
   * Every file read, with its values, the variables its merge keys (<<) brought and its YAML warnings (an
   * unknown tag, say), in the order Ansible loads them; `applies`: whether Ansible reads it for the host
   * the platform's role runs on (another group's file does not count).
   */
  files: {
    path: string;
    values: Record<string, unknown>;
    merged: MergeSources;
    notices: YamlNotice[];
    applies?: boolean;
    layer?: string;
    vault?: 'opened' | 'closed';
  }[];
  /** The values the deployment templates: the deploying host's, each source replacing the earlier ones. */
  values: Record<string, unknown>;
  /** The file (or hosts-file section) each variable of `values` came from: the one that wins. */
  sources: Record<string, string>;
  /** Variables two sources give different values, with the one Ansible uses. */
  conflicts: { name: string; files: string[]; winner?: string }[];
  /** Folders reached again through a symbolic link (a loop), not read a second time. */
  loops: string[];
  /** An inventory folder read with Ansible's precedence: its hosts, the deploying host, and what that means. */
  layout?: InventoryLayout;
}

export { InventoryInputError } from './inventory-errors.js';

export interface TreeOptions {
  /** Opens files encrypted whole with ansible-vault (without it, such a file is read as holding nothing). */
  keyring?: VaultKeyring;
}

/**
 * Reads an inventory: a folder holding a hosts file, `group_vars/` and `host_vars/` (or a hosts file
 * itself) with Ansible's precedence for the host the platform's role runs on (inventory-layout.ts);
 * a folder of vars files alone (e.g. `group_vars/all`), all of its files in Ansible's order; or one
 * vars file. Like Ansible, symbolic links to files and folders are followed; a link back to a folder
 * being read is a loop and is skipped.
 */
export async function readInventoryTree(path: string, options: TreeOptions = {}): Promise<InventoryTree> {
  const info = await stat(path);
  if (info.isDirectory()) {
    const root = basename(path) === 'group_vars' ? dirname(path) : path;
    if (
      (await isDirectory(join(root, 'group_vars'))) ||
      (await isDirectory(join(root, 'host_vars'))) ||
      (await hasHostsFile(root))
    ) {
      return fromLayout(await readLayout(root, options), root);
    }
  } else if (!info.isFile()) {
    throw notRegular(path, info);
  } else if (isHostsFile(path)) {
    return fromLayout(await readLayout(dirname(path), { ...options, hostsFile: path }), dirname(path));
  }
  const loops: string[] = [];
  const paths = info.isDirectory() ? await yamlFilesUnder(path, loops) : [path];
  const files: InventoryTree['files'] = [];
  for (const file of paths) {
    if (!info.isDirectory() && !existsSync(file))
      throw new UsageError(`Cannot read the inventory file ${file}: ENOENT.`, 'Check the path and its permissions.');
    const read = readLayoutVarsFile(file, undefined, true, options.keyring);
    files.push(read);
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
  const conflicts = [...seen]
    .filter(([, e]) => e.differs)
    .map(([name, e]) => ({
      name,
      files: e.files.map((f) => relative(path, f) || f),
      winner: relative(path, sources[name]) || sources[name],
    }));
  return { files, values, sources, conflicts, loops };
}

function fromLayout(layout: InventoryLayout, root: string): InventoryTree {
  const rel = (p: string) => (p.startsWith(root) ? relative(root, p) || p : p);
  return {
    files: layout.files,
    values: layout.values,
    sources: layout.sources,
    conflicts: layout.conflicts.map((c) => ({ name: c.name, files: c.files.map(rel), winner: rel(c.winner) })),
    loops: layout.loops,
    layout,
  };
}

async function hasHostsFile(root: string): Promise<boolean> {
  for (const name of await readdir(root).catch(() => [])) {
    const path = join(root, name);
    if (!name.startsWith('.') && statSync(path, { throwIfNoEntry: false })?.isFile() && isHostsFile(path)) return true;
  }
  return false;
}

/**
 * The inventory values of a doctor run (an absent default inventory is empty), keyed by the platform's
 * names, with any neutral alias translated (the inventory group reports it): what the operator meant,
 * which the live checks test. Each check asks; the files are read and parsed once (see ParsedCache).
 */
export async function inventoryValues(input: {
  inventoryPath: string;
  inventoryExplicit: boolean;
  names?: string;
}): Promise<Record<string, unknown>> {
  return (await inventoryView(input)).meant;
}

/** The inventory as its deployment reads it and as its operator meant it (NamesView), for the words `--names` says. */
export function inventoryView(input: {
  inventoryPath: string;
  inventoryExplicit: boolean;
  names?: string;
}): Promise<NamesView> {
  const names = input.names;
  return readInventoryTree(input.inventoryPath).then(
    (tree) => namesView(tree.values, input.inventoryPath, names),
    (error) => {
      if (error instanceof UsageError) throw error;
      const code = codeOf(error);
      if (code === 'ENOENT' && !input.inventoryExplicit) return namesView({}, input.inventoryPath, names);
      throw new UsageError(
        `Cannot read the inventory ${input.inventoryPath}: ${code ?? messageOf(error)}.`,
        'Give --inventory a YAML file or an inventory folder with group_vars/.',
      );
    },
  );
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
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
    if (codeOf(error) === 'ENOENT') return [];
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
      const code = codeOf(error);
      if (code === 'ENOENT') continue; // a dangling link: Ansible skips it too
      if (code === 'ELOOP') {
        loops.push(path);
        continue;
      }
      throw error;
    }
    const ext = extname(name);
    if (info.isDirectory()) {
      if (ext) continue;
      const real = await realpath(path);
      if (ancestors.includes(real)) {
        loops.push(path);
        continue;
      }
      const inner = (await readdir(path)).filter(isVarsName).sort();
      out.push(...(await collectVarsFiles(path, inner, [...ancestors, real], loops)));
    } else if (isVarsFileName(name)) {
      if (!info.isFile()) throw notRegular(path, info);
      out.push(path);
    }
  }
  return out;
}

function notRegular(path: string, info: Stats): InventoryInputError {
  const kind = info.isFIFO()
    ? 'a pipe'
    : info.isSocket()
      ? 'a socket'
      : info.isCharacterDevice() || info.isBlockDevice()
        ? 'a device'
        : 'not a file';
  return new InventoryInputError(
    `The inventory ${path} is not a regular file (${kind}).`,
    'Give --inventory a YAML file or an inventory folder; pipes and devices are refused.',
  );
}

/** The vars files Ansible reads from one group's folder (`group_vars/<group>/`), in its order. */
export async function groupFolderFiles(dir: string): Promise<string[]> {
  return yamlFilesUnder(dir, []);
}
