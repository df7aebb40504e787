/**
 * Updates of inventory text as splices located with the `yaml` Document API (node ranges): every byte
 * outside the touched keys stays as it was, comments and ordering included. YAML 1.1 is written because
 * Ansible reads inventories as YAML 1.1 (`yes`/`no` are booleans there, so such strings are quoted).
 */
import { stringify } from 'yaml';
import { rowOf } from '../config/neutral-names.js';
import { VARIABLES } from '../config/variables.js';
import { UsageError, messageOf } from '../errors.js';
import { escapeLine } from '../escape.js';
import { isTagged } from './ansible-tagged.js';
import { ANSIBLE_YAML_TAGS } from './yaml-tags.js';
import { loadMapping } from './inventory-parse.js';
import { loadYamlMapping, type YamlMapping } from './yaml-load.js';

const YAML_OPTIONS = { version: '1.1', lineWidth: 0, customTags: ANSIBLE_YAML_TAGS } as const;

export const INVENTORY_HEADER = `# Certificate settings of the platform (certificates of the API endpoints).
# Written by cloudgate setup; "cloudgate schema" prints the JSON Schema of these variables.
`;

export interface InventoryChange {
  /** Variables to set (added at the end in table order when new, otherwise changed in place). */
  set: Record<string, unknown>;
  /** Variables to delete (with the help comment cloudgate wrote above them). */
  remove: string[];
  /**
   * Keys to rename in place (old → new): the line stays where it is, with its comments and its value
   * (or the value `set` gives the new key).
   */
  rename?: Record<string, string>;
}

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
  const edits: TextEdit[] = [];
  const touched = new Set<string>();
  const renamedTo = new Map<string, string>();
  for (const [from, to] of Object.entries(change.rename ?? {})) {
    const entry = mapping.byKey.get(from);
    if (!entry || from === to || change.remove.includes(from) || mapping.byKey.has(to)) continue;
    renamedTo.set(to, from);
    if (to in change.set) continue; // written whole below, under its new name
    touched.add(from);
    edits.push({ start: entry.keyStart, end: entry.keyEnd, text: to });
  }
  for (const name of change.remove) {
    const entry = mapping.byKey.get(name);
    if (!entry) continue;
    touched.add(name);
    edits.push({ start: ownCommentStart(text, entry.start, name), end: entry.end, text: '' });
  }
  const added: string[] = [];
  for (const [name, value] of Object.entries(change.set)) {
    const from = renamedTo.get(name);
    const entry = mapping.byKey.get(from ?? name);
    if (!entry) {
      added.push(name);
      continue;
    }
    if (from !== undefined) {
      touched.add(from);
      edits.push({ start: entry.start, end: entry.end, text: serializePair(name, value) });
      continue;
    }
    if (sameValue(entry.value, value)) continue;
    touched.add(name);
    const oneLine = (s: string) => !s.includes('\n');
    const { valueStart, valueEnd } = entry;
    if (
      entry.scalar &&
      valueStart !== undefined &&
      valueEnd !== undefined &&
      valueStart < valueEnd &&
      isScalarValue(value) &&
      oneLine(text.slice(valueStart, valueEnd)) &&
      oneLine(String(value))
    ) {
      // Keep a trailing "# comment" on the line: replace only the value itself.
      edits.push({
        start: valueStart,
        end: valueEnd,
        text: serializePair(name, value)
          .replace(/^[^:]*:\s?/, '')
          .trimEnd(),
      });
    } else {
      edits.push({ start: entry.start, end: entry.end, text: serializePair(name, value) });
    }
  }
  edits.push(...inlinedAliases(mapping, touched, edits));
  if (added.length > 0) {
    const order = new Map(VARIABLES.map((v, i) => [v.name, i]));
    added.sort((a, b) => (order.get(rowOf(a)?.name ?? a) ?? 1e9) - (order.get(rowOf(b)?.name ?? b) ?? 1e9));
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
function inlinedAliases(mapping: YamlMapping, touched: Set<string>, edits: TextEdit[]): TextEdit[] {
  const out: TextEdit[] = [];
  for (const alias of mapping.aliases) {
    if (!touched.has(alias.targetKey)) continue;
    if (edits.some((e) => e.start <= alias.start && alias.end <= e.end)) continue;
    const inline = flowYaml(alias.targetValue);
    if (inline === undefined) {
      throw new UsageError(
        `The inventory uses the alias *${escapeLine(alias.name)}, whose anchor is in ${alias.targetKey}, which this change removes or replaces.`,
        `Write the value out in place of *${escapeLine(alias.name)} (or move the anchor to another key) and run the command again; nothing was written.`,
      );
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
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
  if (isTagged(value)) return `${value.tag} ${quoted(value.text)}`;
  if (Array.isArray(value)) {
    const items = value.map(flowYaml);
    return items.includes(undefined) ? undefined : `[${items.join(', ')}]`;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const items = Object.entries(value).map(([k, v]) => [quoted(k), flowYaml(v)]);
    return items.some(([, v]) => v === undefined) ? undefined : `{${items.map(([k, v]) => `${k}: ${v}`).join(', ')}}`;
  }
  return undefined;
}

/** A double-quoted YAML string; also escapes the characters YAML 1.1 reads as line breaks. */
function quoted(text: string): string {
  return JSON.stringify(text).replace(
    /[\u0085\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Whole files up to this size are parsed again before writing; larger ones only their new entries. */
const FULL_CHECK_BYTES = 1024 * 1024;

/**
 * Parses what is about to be written; cloudgate never writes a file it cannot read back. In a large
 * file the untouched text is known to load already: its new entries are parsed on their own, so an
 * update stays one parse of the file.
 */
function checkWritten(out: string, edits: TextEdit[]): void {
  try {
    if (out.length <= FULL_CHECK_BYTES) loadMapping(out, 'the updated inventory');
    else
      loadYamlMapping(
        edits
          .filter((e) => e.text.endsWith('\n'))
          .map((e) => e.text)
          .join(''),
        { what: 'the updated inventory', path: 'the new entries' },
      );
  } catch (error) {
    throw new UsageError(
      `cloudgate would write an inventory that does not load as YAML: ${messageOf(error)}`,
      'Nothing was written. Please report this with the shape of the inventory (not its values).',
    );
  }
}

const isScalarValue = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Equal as Ansible would see them: tags and every digit count (JSON alone hides a vault's text). */
export function sameValue(a: unknown, b: unknown): boolean {
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
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, comparable(v)]));
  }
  return value;
}

/** `name: value\n` as YAML 1.1, block literal for multi-line text, Ansible's tags kept. */
export function serializePair(name: string, value: unknown): string {
  return stringify({ [name]: value }, YAML_OPTIONS);
}

function helpComment(name: string): string {
  const row = rowOf(name);
  return row ? `# ${row.help}\n` : '';
}

/** The start of the help comment line cloudgate wrote above a key, so removing the key removes it too. */
function ownCommentStart(text: string, lineStart: number, name: string): number {
  const comment = helpComment(name);
  if (!comment) return lineStart;
  const before = text.slice(Math.max(0, lineStart - comment.length), lineStart);
  return before === comment ? lineStart - comment.length : lineStart;
}
