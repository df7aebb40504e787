/**
 * An inventory's hosts and groups, read as Ansible's `ini` and `yaml` inventory plugins read them:
 * `[group]`, `[group:vars]` and `[group:children]` sections (host lines with inline `key=value`
 * variables, host ranges such as `ctl[1:3].example.com`), or the YAML form (`all: {hosts, vars,
 * children}`). What it gives: each group's hosts, children, own variables and `ansible_group_priority`,
 * each host's inline variables, in the order written (the order Ansible runs a play's hosts in).
 */
import { UsageError } from '../errors.js';
import { isRecord } from '../records.js';

export interface InventoryGroup {
  name: string;
  hosts: string[];
  children: string[];
  vars: Record<string, unknown>;
  priority: number;
}

export interface HostsInventory {
  /** The files read, in order. */
  files: string[];
  groups: Map<string, InventoryGroup>;
  /** Inline variables of each host (`ctl1 ansible_host=10.0.0.1`, or a host's YAML mapping). */
  hostVars: Map<string, Record<string, unknown>>;
  /** Every host, in the order the files name them. */
  hosts: string[];
}

export function emptyInventory(): HostsInventory {
  const inventory: HostsInventory = { files: [], groups: new Map(), hostVars: new Map(), hosts: [] };
  group(inventory, 'all');
  group(inventory, 'ungrouped');
  return inventory;
}

function group(inventory: HostsInventory, name: string): InventoryGroup {
  let g = inventory.groups.get(name);
  if (!g) {
    g = { name, hosts: [], children: [], vars: {}, priority: 1 };
    inventory.groups.set(name, g);
  }
  return g;
}

function addHost(inventory: HostsInventory, groupName: string, host: string, vars: Record<string, unknown>): void {
  if (!inventory.hostVars.has(host)) {
    inventory.hostVars.set(host, {});
    inventory.hosts.push(host);
  }
  Object.assign(inventory.hostVars.get(host)!, vars);
  const g = group(inventory, groupName);
  if (!g.hosts.includes(host)) g.hosts.push(host);
}

function setGroupVar(g: InventoryGroup, key: string, value: unknown): void {
  if (key === 'ansible_group_priority') {
    const n = Number(value);
    if (Number.isInteger(n)) g.priority = n;
  } else g.vars[key] = value;
}

function addChild(inventory: HostsInventory, parent: string, child: string): void {
  const p = group(inventory, parent);
  group(inventory, child);
  if (!p.children.includes(child)) p.children.push(child);
}

/** Whether a text is an INI inventory rather than YAML (a `[section]` line, or host lines without `:`). */
export function looksLikeIni(text: string): boolean {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !l.startsWith(';'));
  if (lines.length === 0) return false;
  return /^\[[^\]]+\]$/.test(lines[0]) || lines.every((l) => !/^[\w.-]+\s*:(\s|$)/.test(l));
}

/** Adds an INI inventory's text to `inventory` (Ansible's `ini` plugin). */
export function readIniInventory(inventory: HostsInventory, text: string, path: string): void {
  inventory.files.push(path);
  let current = 'ungrouped';
  let state: 'hosts' | 'vars' | 'children' = 'hosts';
  const pendingChildren: [string, string][] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) return;
    const fail = (why: string): never => {
      throw new UsageError(`${path}:${index + 1}: ${why}`, 'Fix the inventory file: Ansible would refuse it too.');
    };
    const section = /^\[([^\]:\s]+)(?::(\w+))?\]$/.exec(line);
    if (section) {
      current = section[1];
      const kind = section[2] ?? 'hosts';
      if (kind !== 'hosts' && kind !== 'vars' && kind !== 'children')
        fail(`section [${section[1]}:${kind}] has an unknown type`);
      state = kind as typeof state; // one of the three, checked above
      if (state !== 'vars') group(inventory, current);
      return;
    }
    if (line.startsWith('[')) fail(`invalid section "${line}"`);
    if (state === 'vars') {
      const eq = line.indexOf('=');
      if (eq < 0) fail(`expected key=value, got "${line}"`);
      setGroupVar(group(inventory, current), line.slice(0, eq).trim(), iniValue(line.slice(eq + 1).trim()));
    } else if (state === 'children') {
      pendingChildren.push([current, line.split(/\s+/)[0]]);
    } else {
      const tokens = shellWords(line);
      const vars: Record<string, unknown> = {};
      for (const token of tokens.slice(1)) {
        const eq = token.indexOf('=');
        if (eq < 0) fail(`expected key=value after the host name, got "${token}"`);
        vars[token.slice(0, eq)] = iniValue(token.slice(eq + 1));
      }
      for (const host of expandHosts(tokens[0].replace(/:\d+$/, ''))) addHost(inventory, current, host, vars);
    }
  });
  for (const [parent, child] of pendingChildren) addChild(inventory, parent, child);
}

/** Adds a YAML inventory (already parsed) to `inventory` (Ansible's `yaml` plugin). */
export function readYamlInventory(inventory: HostsInventory, data: unknown, path: string): void {
  inventory.files.push(path);
  if (!isRecord(data)) return;
  for (const [name, body] of Object.entries(data)) yamlGroup(inventory, name, body);
}

function yamlGroup(inventory: HostsInventory, name: string, body: unknown): void {
  group(inventory, name);
  if (!isRecord(body)) return;
  if (isRecord(body.vars)) for (const [k, v] of Object.entries(body.vars)) setGroupVar(group(inventory, name), k, v);
  if (isRecord(body.hosts)) {
    for (const [pattern, vars] of Object.entries(body.hosts)) {
      for (const host of expandHosts(pattern)) addHost(inventory, name, host, isRecord(vars) ? vars : {});
    }
  }
  if (isRecord(body.children)) {
    for (const [child, childBody] of Object.entries(body.children)) {
      yamlGroup(inventory, child, childBody);
      addChild(inventory, name, child);
    }
  }
}

/** Whether parsed YAML is an inventory of hosts (groups holding `hosts`, `children` or `vars`), not a vars file. */
export function isYamlInventory(data: unknown): boolean {
  if (!isRecord(data)) return false;
  const groups = Object.values(data);
  return (
    groups.length > 0 &&
    groups.every(
      (g) => g === null || (isRecord(g) && Object.keys(g).every((k) => ['hosts', 'children', 'vars'].includes(k))),
    ) &&
    groups.some((g) => isRecord(g) && Object.keys(g).length > 0)
  );
}

/**
 * Ansible's `ast.literal_eval` of an INI value: numbers, True/False/None, quoted strings, lists and dicts
 * of those; anything else stays the text.
 */
export function iniValue(text: string): unknown {
  if (/^[-+]?\d+$/.test(text)) return Number(text);
  if (/^[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return Number(text);
  if (text === 'True') return true;
  if (text === 'False') return false;
  if (text === 'None') return null;
  const quoted = /^(['"])(.*)\1$/s.exec(text);
  if (quoted) return quoted[2].replace(/\\(.)/g, '$1');
  return text;
}

/** Python's `shlex.split(line, comments=True)`, enough for host lines. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === '#') {
      break;
    } else if (/\s/.test(c)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += c;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

/** `ctl[1:3].example.com` → ctl1, ctl2, ctl3 (also `[01:03]`, `[a:c]` and `[1:9:2]`). */
export function expandHosts(pattern: string): string[] {
  const range = /^(.*?)\[([0-9a-zA-Z]+):([0-9a-zA-Z]+)(?::(\d+))?\](.*)$/.exec(pattern);
  if (!range) return [pattern];
  const [, head, from, to, stepText, tail] = range;
  const step = Number(stepText ?? 1) || 1;
  const out: string[] = [];
  if (/^\d+$/.test(from) && /^\d+$/.test(to)) {
    const width = from.startsWith('0') ? from.length : 0;
    for (let n = Number(from); n <= Number(to); n += step) out.push(`${head}${String(n).padStart(width, '0')}${tail}`);
  } else {
    for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c += step)
      out.push(`${head}${String.fromCharCode(c)}${tail}`);
  }
  return out.flatMap(expandHosts);
}

/** Every group a host belongs to, with `all`, each with its depth (all 0, its children 1, ...). */
export function groupsOf(inventory: HostsInventory, host: string): (InventoryGroup & { depth: number })[] {
  const depth = depths(inventory);
  const member = new Set<string>(['all']);
  for (const g of inventory.groups.values()) if (g.hosts.includes(host)) member.add(g.name);
  // A group's ancestors hold the host too.
  let grew = true;
  while (grew) {
    grew = false;
    for (const g of inventory.groups.values()) {
      if (!member.has(g.name) && g.children.some((c) => member.has(c))) {
        member.add(g.name);
        grew = true;
      }
    }
  }
  // A host in no group but all is in ungrouped, as Ansible reconciles it.
  if (member.size === 1) member.add('ungrouped');
  return [...member]
    .map((name) => ({ ...group(inventory, name), depth: depth.get(name) ?? 1 }))
    .sort((a, b) => a.depth - b.depth || a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Each group's depth: `all` 0; every other group at least 1, and one more than its deepest parent. */
function depths(inventory: HostsInventory): Map<string, number> {
  const depth = new Map<string, number>([['all', 0]]);
  for (const name of inventory.groups.keys()) if (name !== 'all') depth.set(name, 1);
  for (let pass = 0; pass < inventory.groups.size; pass++) {
    let changed = false;
    for (const g of inventory.groups.values()) {
      for (const child of g.children) {
        const want = (depth.get(g.name) ?? 1) + 1;
        if (child !== 'all' && (depth.get(child) ?? 1) < want) {
          depth.set(child, want);
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return depth;
}

/** The hosts of a group and of its descendants, in the order Ansible runs them. */
export function hostsOf(inventory: HostsInventory, name: string, seen = new Set<string>()): string[] {
  const g = inventory.groups.get(name);
  if (!g || seen.has(name)) return [];
  seen.add(name);
  const out = name === 'all' ? [...inventory.hosts] : [...g.hosts];
  for (const child of g.children)
    for (const host of hostsOf(inventory, child, seen)) if (!out.includes(host)) out.push(host);
  return out;
}
