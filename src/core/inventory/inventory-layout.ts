/**
 * An inventory folder as Ansible reads it for the host the platform's role runs on. The role's play is
 * `hosts: controllers` and every task that creates an object runs once (`run_once`), on the first host
 * of `controllers`: its variables are the ones templated. They come, lowest first, from:
 *
 *   1. the hosts file's `[all:vars]`, then each group's `[group:vars]` (ini or yaml hosts file);
 *   2. `group_vars/all` (a folder's files sorted by name, sub-folders in place; or `all.yml` ...);
 *   3. `group_vars/<group>` of each other group the host is in: by depth (a child group after its
 *      parent), then `ansible_group_priority`, then name;
 *   4. the host's own variables in the hosts file, then `host_vars/<host>`.
 *
 * A later source replaces a variable whole (a mapping too: Ansible's `hash_behaviour` is `replace`).
 * Groups the host is not in do not count. Files are read as Ansible's vars plugin reads them: `.yml`,
 * `.yaml`, `.json` or no extension (case-sensitive: `.YML` is not read), hidden files and `*~` skipped;
 * a whole file encrypted with ansible-vault is decrypted with the vault password, and without one
 * Ansible stops before any task.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, extname, join, relative } from 'node:path';
import type { Finding } from '../findings.js';
import { codeOf, messageOf } from '../errors.js';
import { InventoryInputError } from './inventory-errors.js';
import { readRegularFileIfExistsSync } from '../safe-read.js';
import {
  emptyInventory,
  groupsOf,
  hostsOf,
  isYamlInventory,
  looksLikeIni,
  readIniInventory,
  readYamlInventory,
  type HostsInventory,
} from './hosts-file.js';
import { loadMapping, readParsed } from './inventory-parse.js';
import { checkedVarsText } from './text-check.js';
import type { VaultKeyring } from './vault-options.js';
import { isVaultText } from './vault.js';
import { loadYaml, type YamlNotice } from './yaml-load.js';
import type { MergeSources } from './yaml-merge.js';

/** One vars file read, and where it stands for the deploying host. */
export interface VarsFile {
  path: string;
  values: Record<string, unknown>;
  merged: MergeSources;
  notices: YamlNotice[];
  /** `group_vars/<group>` or `host_vars/<host>` (absent for a lone file). */
  layer?: string;
  /** Whether Ansible reads it for the deploying host. */
  applies: boolean;
  /** A whole file encrypted with ansible-vault: opened with the password, or closed without one. */
  vault?: 'opened' | 'closed';
}

/** The host the role's tasks run on, and how it was found. */
export interface DeployingHost {
  name: string;
  /** Its groups in Ansible's order (all first, then by depth, priority, name). */
  groups: string[];
  /** Every host of `controllers`, in play order (the first runs the tasks). */
  controllers: string[];
  /** No hosts file names the host: it stands for a host of `controllers` (and of `all`), other groups unknown. */
  assumed: boolean;
}

export interface InventoryLayout {
  files: VarsFile[];
  hostsFiles: string[];
  host: DeployingHost;
  /** The deploying host's variables, each source replacing the earlier ones. */
  values: Record<string, unknown>;
  /** Where each variable of `values` comes from: a file, or `<hosts file> [group:vars]`. */
  sources: Record<string, string>;
  /** Variables two sources of the host give different values, with the one that wins. */
  conflicts: { name: string; files: string[]; winner: string }[];
  /** What the layout means for the render (a group the host is not in, a closed vault, ...). */
  notes: Finding[];
  loops: string[];
  /** The variables of each other controller (the tasks every host runs read them), by host. */
  otherControllers: Map<string, Record<string, unknown>>;
}

/** Host files Ansible skips in an inventory folder (its INVENTORY_IGNORE_EXTS; `.ini` is the platform's hosts file, so it is read). */
const IGNORED = [
  '.pyc',
  '.pyo',
  '.swp',
  '.bak',
  '~',
  '.rpm',
  '.md',
  '.txt',
  '.rst',
  '.orig',
  '.cfg',
  '.retry',
  '.json',
  '.py',
  '.sh',
];
const VARS_EXTENSIONS = ['.yml', '.yaml', '.json'];
const ASSUMED_HOST = '(a controller)';

/** Whether a file is an inventory of hosts (ini, or yaml with groups), not a vars file. */
export function isHostsFile(path: string): boolean {
  const ext = extname(path);
  if (IGNORED.some((e) => path.endsWith(e))) return false;
  let text: string;
  try {
    text = readRegularFileIfExistsSync(path, { what: 'the hosts file', maxBytes: 4 * 1024 * 1024 })?.text ?? '';
  } catch {
    return false;
  }
  if (ext === '.ini') return true;
  if (ext === '' && looksLikeIni(text) && text.trim() !== '') return true;
  if (ext !== '' && ext !== '.yml' && ext !== '.yaml') return false;
  try {
    return isYamlInventory(loadYaml(text, { what: 'the hosts file', path }).value);
  } catch {
    return false;
  }
}

/** The inventory's hosts files: `hostsFile` when given, else those in the folder. */
async function hostsInventory(root: string, hostsFile: string | undefined): Promise<HostsInventory> {
  const inventory = emptyInventory();
  const names = hostsFile ? [basename(hostsFile)] : (await readdir(root)).filter((n) => !n.startsWith('.')).sort();
  for (const name of names) {
    const path = join(root, name);
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info?.isFile() || (!hostsFile && !isHostsFile(path))) continue;
    const text = readRegularFileIfExistsSync(path, { what: 'the hosts file', maxBytes: 4 * 1024 * 1024 })?.text ?? '';
    if (extname(name) === '.ini' || (extname(name) === '' && looksLikeIni(text)))
      readIniInventory(inventory, text, path);
    else readYamlInventory(inventory, loadYaml(text, { what: 'the hosts file', path }).value, path);
  }
  return inventory;
}

/** Reads an inventory folder (the one holding `group_vars/`, `host_vars/` and the hosts file). */
export async function readLayout(
  root: string,
  options: { hostsFile?: string; keyring?: VaultKeyring } = {},
): Promise<InventoryLayout> {
  const inventory = await hostsInventory(root, options.hostsFile);
  const notes: Finding[] = [];
  const loops: string[] = [];
  const controllers = hostsOf(inventory, 'controllers');
  const named = inventory.files.length > 0 && controllers.length > 0;
  if (inventory.files.length > 0 && controllers.length === 0) {
    notes.push({
      rule: 'deploy-host',
      severity: 'warning',
      message: `${inventory.files.map((f) => relative(root, f)).join(', ')} names no host in group controllers: the platform's play (hosts: controllers) would run on no host and create nothing.`,
      advice: "Put the control-plane hosts in a group named controllers, as the platform's hosts file does.",
    });
  }
  const hostName = named ? controllers[0] : ASSUMED_HOST;
  const groups = named ? groupsOf(inventory, hostName).map((g) => g.name) : ['all', 'controllers'];
  const host: DeployingHost = { name: hostName, groups, controllers: named ? controllers : [], assumed: !named };

  const files: VarsFile[] = [];
  const byGroup = await varsFolders(join(root, 'group_vars'), loops);
  const byHost = await varsFolders(join(root, 'host_vars'), loops);
  const read = (path: string, layer: string, applies: boolean) => {
    const file = readVarsFile(path, layer, applies, options.keyring);
    files.push(file);
    return file;
  };
  const layers: { source: string; values: Record<string, unknown> }[] = [];
  // 1. the hosts file's group variables: all first, then the host's groups in order
  for (const name of groups) {
    const vars = inventory.groups.get(name)?.vars ?? {};
    if (Object.keys(vars).length)
      layers.push({
        source: `${inventory.files.map((f) => relative(root, f)).join(', ')} [${name}:vars]`,
        values: vars,
      });
  }
  // 2, 3. group_vars of all, then of each other group of the host; other groups' files are read but do not count
  const order = [...groups];
  for (const group of byGroup.keys()) if (!order.includes(group)) order.push(group);
  for (const group of order) {
    const applies = groups.includes(group);
    for (const path of byGroup.get(group) ?? []) {
      const file = read(path, `group_vars/${group}`, applies);
      if (applies) layers.push({ source: path, values: file.values });
    }
    if (!applies && byGroup.has(group))
      notes.push(
        ...groupNotApplied(
          group,
          host,
          files.filter((f) => f.layer === `group_vars/${group}`),
          root,
        ),
      );
  }
  // 4. the host's own variables
  if (named) {
    const inline = inventory.hostVars.get(hostName) ?? {};
    if (Object.keys(inline).length)
      layers.push({
        source: `${inventory.files.map((f) => relative(root, f)).join(', ')} (${hostName})`,
        values: inline,
      });
  }
  for (const [hostKey, paths] of byHost) {
    for (const path of paths) {
      const file = read(path, `host_vars/${hostKey}`, hostKey === hostName);
      if (hostKey === hostName) layers.push({ source: path, values: file.values });
    }
    if (host.assumed)
      notes.push(
        ...hostNotKnown(
          hostKey,
          files.filter((f) => f.layer === `host_vars/${hostKey}`),
          root,
        ),
      );
  }
  const { values, sources, conflicts } = mergeLayers(layers);
  for (const file of files) if (file.vault === 'closed' && file.applies) notes.push(closedVault(file.path));
  const otherControllers = new Map<string, Record<string, unknown>>();
  for (const other of host.controllers.slice(1))
    otherControllers.set(other, hostValues(inventory, other, byGroup, byHost, files));
  return { files, hostsFiles: inventory.files, host, values, sources, conflicts, notes, loops, otherControllers };
}

/** The variables of another host, from the files already read (for the tasks every host runs). */
function hostValues(
  inventory: HostsInventory,
  host: string,
  byGroup: Map<string, string[]>,
  byHost: Map<string, string[]>,
  files: VarsFile[],
): Record<string, unknown> {
  const groups = groupsOf(inventory, host).map((g) => g.name);
  const valuesOf = (path: string) => files.find((f) => f.path === path)?.values ?? {};
  const layers = [
    ...groups.map((g) => ({ source: g, values: inventory.groups.get(g)?.vars ?? {} })),
    ...groups.flatMap((g) => (byGroup.get(g) ?? []).map((p) => ({ source: p, values: valuesOf(p) }))),
    { source: host, values: inventory.hostVars.get(host) ?? {} },
    ...(byHost.get(host) ?? []).map((p) => ({ source: p, values: valuesOf(p) })),
  ];
  return mergeLayers(layers).values;
}

function mergeLayers(
  layers: { source: string; values: Record<string, unknown> }[],
): Pick<InventoryLayout, 'values' | 'sources' | 'conflicts'> {
  const values: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  const seen = new Map<string, { files: string[]; differs: boolean }>();
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer.values)) {
      const entry = seen.get(name);
      if (entry) {
        entry.files.push(layer.source);
        if (JSON.stringify(values[name]) !== JSON.stringify(value)) entry.differs = true;
      } else seen.set(name, { files: [layer.source], differs: false });
      values[name] = value;
      sources[name] = layer.source;
    }
  }
  const conflicts = [...seen]
    .filter(([, e]) => e.differs)
    .map(([name, e]) => ({ name, files: e.files, winner: sources[name] }));
  return { values, sources, conflicts };
}

/** Each group's vars files in a `group_vars` (or `host_vars`) folder, in Ansible's order within the group. */
async function varsFolders(dir: string, loops: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  let names: string[];
  try {
    names = (await readdir(dir)).filter(isVarsName).sort();
  } catch (error) {
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return out;
    throw error;
  }
  const byName = new Map<string, string[]>();
  for (const name of names) {
    const ext = extname(name);
    const group = VARS_EXTENSIONS.includes(ext) ? name.slice(0, -ext.length) : name;
    byName.set(group, [...(byName.get(group) ?? []), name]);
  }
  const ancestors = [await realpath(dir)];
  for (const [group, candidates] of byName) {
    // Of `<group>` (a folder or file), `<group>.yml`, `.yaml`, `.json`, Ansible reads the first that exists.
    const first = ['', ...VARS_EXTENSIONS].map((e) => group + e).find((n) => candidates.includes(n));
    if (first) out.set(group, await varsFiles(join(dir, first), ancestors, loops));
  }
  return out;
}

/** A vars file, or a folder's vars files (names sorted, sub-folders in place, links followed). */
export async function varsFiles(path: string, ancestors: string[], loops: string[]): Promise<string[]> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ELOOP') loops.push(path);
    else if (code !== 'ENOENT') throw error;
    return [];
  }
  if (!info.isDirectory()) return isVarsFileName(basename(path)) ? [path] : [];
  const real = await realpath(path);
  if (ancestors.includes(real)) {
    loops.push(path);
    return [];
  }
  const out: string[] = [];
  for (const name of (await readdir(path)).filter(isVarsName).sort()) {
    const inner = join(path, name);
    const innerInfo = await stat(inner).catch((error: unknown) => {
      if (codeOf(error) === 'ELOOP') loops.push(inner);
      return undefined;
    });
    if (!innerInfo) continue;
    if (innerInfo.isDirectory()) {
      if (!extname(name)) out.push(...(await varsFiles(inner, [...ancestors, real], loops)));
    } else if (isVarsFileName(name)) out.push(inner);
  }
  return out;
}

const isVarsName = (name: string) => !name.startsWith('.') && !name.endsWith('~');
/** Ansible's test, case-sensitive: `.yml`, `.yaml`, `.json`, or no extension at all. */
export const isVarsFileName = (name: string) => !extname(name) || VARS_EXTENSIONS.includes(extname(name));

/** One vars file, a whole-file vault opened with the keyring. */
export function readVarsFile(
  path: string,
  layer: string | undefined,
  applies: boolean,
  keyring?: VaultKeyring,
): VarsFile {
  const info = statSync(path, { throwIfNoEntry: false });
  if (info && !info.isFile()) {
    // Ansible would block on a pipe in group_vars/; an input cloudgate refuses (exit 2), as it refuses one given as --inventory.
    throw new InventoryInputError(
      `The inventory file ${path} is not a regular file (${info.isFIFO() ? 'a pipe' : 'a device or socket'}).`,
      'Remove it from the inventory folder, or replace it with an ordinary YAML file.',
    );
  }
  if (startsWithVault(path)) {
    if (!keyring)
      return { path, values: {}, merged: {}, notices: [], ...(layer ? { layer } : {}), applies, vault: 'closed' };
    const read = readRegularFileIfExistsSync(path, { what: 'the inventory file' });
    let plaintext: string;
    try {
      plaintext = keyring.open(read?.text ?? '');
    } catch (error) {
      throw Object.assign(
        new Error(`${path} is encrypted with ansible-vault and cannot be decrypted: ${messageOf(error)}.`),
        {
          advice:
            'Give the vault password it was encrypted with (--vault-password-file FILE or --vault-id LABEL@FILE); Ansible would stop here too.',
        },
      );
    }
    const mapping = loadMapping(checkedVarsText({ text: plaintext }, 'the inventory file (decrypted)', path), path);
    return {
      path,
      values: mapping.values,
      merged: mapping.merged,
      notices: mapping.notices,
      ...(layer ? { layer } : {}),
      applies,
      vault: 'opened',
    };
  }
  const parsed = readParsed(path, { what: 'the inventory file' });
  if (!parsed) return { path, values: {}, merged: {}, notices: [], ...(layer ? { layer } : {}), applies };
  return {
    path,
    values: parsed.mapping.values,
    merged: parsed.mapping.merged,
    notices: parsed.mapping.notices,
    ...(layer ? { layer } : {}),
    applies,
  };
}

function startsWithVault(path: string): boolean {
  let fd: number | undefined;
  try {
    // Non-blocking: a pipe in the folder must not wait for a writer (the read then refuses it by name).
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return false;
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, 64, 0);
    return isVaultText(head.subarray(0, n).toString('utf8'));
  } catch {
    return false; // the read names the problem
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function closedVault(path: string): Finding {
  return {
    rule: 'vault-file',
    severity: 'error',
    message: `${path} is encrypted with ansible-vault and no vault password was given: Ansible stops before any task ("Attempting to decrypt but no vault secrets found"), and cloudgate cannot read what it sets.`,
    advice:
      'Give the vault password: --vault-password-file FILE, --vault-id LABEL@FILE, ANSIBLE_VAULT_PASSWORD_FILE or vault_password_file in ansible.cfg.',
  };
}

const CERTIFICATE_VARIABLE = /^(cluster_issuer_|openstack_helm_ingress_|atmosphere_ingress_)/;

/**
 * A host's own files that set certificate variables, when no hosts file says which host the role runs
 * on: if that host is the first controller, its values win over every group's when the deployment runs.
 */
function hostNotKnown(hostKey: string, files: VarsFile[], root: string): Finding[] {
  const named = files.flatMap((f) =>
    Object.keys(f.values)
      .filter((k) => CERTIFICATE_VARIABLE.test(k))
      .map((k) => ({ k, f })),
  );
  if (named.length === 0) return [];
  return [
    {
      rule: 'overridden',
      severity: 'warning',
      variable: named[0].k,
      message: `${relative(root, named[0].f.path)}, the host variables of ${hostKey}, sets ${named.map((n) => n.k).join(', ')}: without a hosts file cloudgate cannot tell whether ${hostKey} is the host the role runs on, so it renders without these values; if it is, they win over every group's.`,
      advice:
        'Give --inventory the folder holding the hosts file (hosts.ini), or move the variables to group_vars/all.',
    },
  ];
}

/** A group's files that set certificate variables, when the deploying host is not in the group. */
function groupNotApplied(group: string, host: DeployingHost, files: VarsFile[], root: string): Finding[] {
  const named = files.flatMap((f) =>
    Object.keys(f.values)
      .filter((k) => CERTIFICATE_VARIABLE.test(k))
      .map((k) => ({ k, f })),
  );
  if (named.length === 0) return [];
  const first = named[0];
  return [
    {
      rule: 'group-not-applied',
      severity: 'warning',
      variable: first.k,
      message: host.assumed
        ? `${relative(root, first.f.path)} (group ${group}) sets ${named.map((n) => n.k).join(', ')}, but without a hosts file cloudgate cannot tell whether the controllers are in ${group}: it renders without these values.`
        : `${relative(root, first.f.path)} (group ${group}) sets ${named.map((n) => n.k).join(', ')}, but ${host.name}, the host the role's tasks run on, is not in ${group}: Ansible does not use these values there.`,
      advice: host.assumed
        ? 'Give --inventory the folder holding the hosts file (hosts.ini), or move the variables to group_vars/all.'
        : `Move them to group_vars/all (or group_vars/controllers), or remove them.`,
    },
  ];
}
