/**
 * Output stays bounded whatever a server, a file or the cluster returns, with one shared cap for each
 * kind of thing: a list in a message shows its first LIST_LIMIT items and says how many more there are
 * (20,000 projects once made a single 877 KB line); a text quoted from outside (an error body, a
 * cert-manager message) shows its first TEXT_LIMIT characters; no line of a report (a check's message,
 * advice, a detail) is longer than LINE_LIMIT. Every cut is made after redaction (a secret cut in two
 * would no longer be recognised) and says how much was left out.
 */
import { redact } from './secrets.js';

/** Items shown in one message before "and N more". */
export const LIST_LIMIT = 20;
/** Characters of one text from a server, a file or the cluster quoted in a message. */
export const TEXT_LIMIT = 300;
/** Characters of one line of a report: a message, an advice, a detail. */
export const LINE_LIMIT = 4000;

/** The first `limit` items, and how many are left out. */
export function capped<T>(items: readonly T[], limit = LIST_LIMIT): { shown: T[]; more: number } {
  return items.length <= limit
    ? { shown: [...items], more: 0 }
    : { shown: items.slice(0, limit), more: items.length - limit };
}

/** `a, b, c and 17 more`: a list joined for a message, never longer than `limit` items. */
export function joinCapped(items: readonly string[], limit = LIST_LIMIT, separator = ', '): string {
  const { shown, more } = capped(items, limit);
  return more ? `${shown.join(separator)} and ${more} more` : shown.join(separator);
}

/** The text redacted, then cut to `limit` characters: `…and N more characters` says what was left out. */
export function cutText(text: string, limit = TEXT_LIMIT): string {
  const clean = redact(text);
  if (clean.length <= limit) return clean;
  let end = limit;
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
  return `${clean.slice(0, end)}… and ${clean.length - end} more characters`;
}

/**
 * A detail value for a report, bounded: strings cut to LINE_LIMIT, lists to LIST_LIMIT items (then
 * "… and N more"), at any depth. Facts are shown as they are (`--verbose`, `--json`): this keeps them readable.
 */
export function boundedValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cutText(value, LINE_LIMIT);
  if (Array.isArray(value)) {
    const { shown, more } = capped(value);
    const items = shown.map((v) => boundedValue(v, depth + 1));
    return more ? [...items, `… and ${more} more`] : items;
  }
  if (value && typeof value === 'object' && depth < 8 && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value);
    const { shown, more } = capped(entries, 4 * LIST_LIMIT);
    const out = Object.fromEntries(shown.map(([k, v]) => [k, boundedValue(v, depth + 1)]));
    return more ? { ...out, '…': `and ${more} more` } : out;
  }
  return value;
}

/** A check's facts, bounded as boundedValue bounds each of its values. */
export function boundedRecord(record: object): Record<string, unknown> {
  const { shown, more } = capped(Object.entries(record), 4 * LIST_LIMIT);
  const out = Object.fromEntries(shown.map(([k, v]) => [k, boundedValue(v, 1)]));
  return more ? { ...out, '…': `and ${more} more` } : out;
}
