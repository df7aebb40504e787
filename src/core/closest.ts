/** "Did you mean": the one rule every suggestion of a name uses (commands, flags, groups, clouds, variables). */

/** Levenshtein distance: insertions, deletions and substitutions each cost one. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

/**
 * The candidate closest to `given`: the only one it is a prefix of (three letters or more), else the
 * nearest by edit distance when that distance is at most a third of the name (at least 2).
 */
export function closest(given: string, candidates: readonly string[]): string | undefined {
  const prefixed = candidates.filter((c) => c.startsWith(given));
  if (given.length >= 3 && prefixed.length === 1) return prefixed[0];
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(given, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  const limit = Math.max(2, Math.floor(given.length / 3));
  return best && best.distance <= limit ? best.name : undefined;
}
