/**
 * The inventory's diff as the review shows it: every value that is, or looks like, a secret masked,
 * line by line, so that no line of the diff shows a secret.
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { TextEdit } from '../inventory/inventory.js';
import { ANSIBLE_YAML_OPTIONS } from '../inventory/yaml-ansible.js';
import { eachTopLevelEntry } from '../inventory/yaml-top-level.js';
import { rowOf } from '../config/neutral-names.js';
import { holdsPrivateKey, mask, redact } from '../secrets.js';
import { unifiedDiffOfEdits } from './edit-diff.js';

/** The diff of the inventory as it will be written, secrets masked (shown, never printed). */
export function maskedDiff(path: string, before: string, after: string, edits: TextEdit[]): string {
  return redact(
    unifiedDiffOfEdits(
      path,
      { before, after, beforeMasks: secretMasks(before), afterMasks: secretMasks(after) },
      edits,
    ),
  );
}

/** Keys that are not table variables but look like they hold a secret (`db_password`, `api_key`, ...). */
const SECRET_LOOKING = /password|secret|token|key/i;

/**
 * The splices that mask, at any depth, every scalar under a key that looks secret or holding a PEM
 * private key, and the values of the table's secret variables (the table's `secret` column decides for them:
 * `openstack_helm_ingress_secret_name` is not a secret), so that no line of the diff shows a secret.
 * Only the top-level entries whose text holds such a key are parsed (one at a time), and every line
 * stays where it was.
 */
export function secretMasks(text: string): TextEdit[] {
  const masks: TextEdit[] = [];
  const split = eachTopLevelEntry(text, (entry) => {
    const row = rowOf(entry.key);
    const entryText = text.slice(entry.start, entry.end);
    if ((row ? row.secret : SECRET_LOOKING.test(entryText)) || holdsPrivateKey(entryText))
      masks.push(...masksIn(text, entry.start, entry.end));
  });
  return split ? masks : masksIn(text, 0, text.length);
}

/** The text with its secrets masked (secretMasks applied). */
export function maskSecretLooking(text: string): string {
  let out = '';
  let at = 0;
  for (const edit of secretMasks(text)) {
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

function masksIn(text: string, from: number, to: number): TextEdit[] {
  const part = text.slice(from, to);
  const doc = parseDocument(part, ANSIBLE_YAML_OPTIONS);
  if (doc.errors.length > 0) return [];
  const masks: TextEdit[] = [];
  const walk = (node: unknown, masked: boolean, top: boolean): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const row = top ? rowOf(key) : undefined;
        walk(pair.value, masked || (row ? row.secret === true : SECRET_LOOKING.test(key)), false);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) walk(item, masked, false);
    } else if (
      (masked || (isScalar(node) && holdsPrivateKey(String(node.value)))) &&
      isScalar(node) &&
      node.range &&
      node.range[0] < node.range[1]
    ) {
      // A private key is masked by its content too, whatever its variable is called.
      masks.push(...lineMasks(part, node.range[0], node.range[1], from));
    }
  };
  walk(doc.contents, false, true);
  return masks.sort((a, b) => a.start - b.start);
}

/** One mask per line of [start, end): the first line's value, then each line's text after its indent. */
function lineMasks(part: string, start: number, end: number, offset: number): TextEdit[] {
  const out: TextEdit[] = [];
  for (let at = start, first = true; at < end; first = false) {
    const nl = part.indexOf('\n', at);
    const lineEnd = nl === -1 || nl >= end ? end : nl;
    const from = first ? at : at + /^[ \t]*/.exec(part.slice(at, lineEnd))![0].length;
    if (from < lineEnd) out.push({ start: from + offset, end: lineEnd + offset, text: mask('x') });
    at = lineEnd + 1;
  }
  return out;
}
