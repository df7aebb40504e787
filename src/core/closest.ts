/** "Did you mean": the one rule every suggestion of a name uses (commands, flags, groups, clouds, variables). */
import { UsageError } from './errors.js';
import { joinCapped } from './bounded.js';

/** Levenshtein distance: insertions, deletions and substitutions each cost one. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

export interface ClosestOptions {
  /**
   * Compare without regard to case (the suggestion keeps the candidate's spelling): for names a person
   * may capitalise although the reader does not (`Broker_URL` for `broker_url` in the config file).
   */
  ignoreCase?: boolean;
}

/**
 * The candidate closest to `given`: the only one it is a prefix of (three letters or more), else the
 * nearest by edit distance when that distance is at most a third of the name (at least 2).
 */
export function closest(
  given: string,
  candidates: readonly string[],
  options: ClosestOptions = {},
): string | undefined {
  const fold = (text: string) => (options.ignoreCase ? text.toLowerCase() : text);
  const typed = fold(given);
  const prefixed = candidates.filter((c) => fold(c).startsWith(typed));
  if (typed.length >= 3 && prefixed.length === 1) return prefixed[0];
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed, fold(name));
    if (!best || distance < best.distance) best = { name, distance };
  }
  const limit = Math.max(2, Math.floor(typed.length / 3));
  return best && best.distance <= limit ? best.name : undefined;
}

export interface NotOneOfOptions extends ClosestOptions {
  /** How the closest choice is written as what to type (default: `--flag value` for a flag, else the value quoted). */
  typed?: (guess: string) => string;
  /** The advice when no choice is close. */
  otherwise?: string;
}

/**
 * The one wording of a value outside a fixed list (a group, a format, a section, a setting):
 * `WHAT "given" is not one of: a, b, c.`, with the closest one as "did you mean" when there is one.
 */
export function notOneOf(
  what: string,
  given: string,
  choices: readonly string[],
  options: NotOneOfOptions = {},
): UsageError {
  const guess = closest(given, choices, options);
  const typed = options.typed ?? ((g: string) => (what.startsWith('--') ? `${what} ${g}` : `"${g}"`));
  return new UsageError(
    `${what} "${given}" is not one of: ${joinCapped(choices)}.`,
    guess ? `Did you mean ${typed(guess)}?` : options.otherwise,
  );
}
