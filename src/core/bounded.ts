/**
 * Output lines stay bounded whatever the server or cluster returns: a list in a message shows its first
 * items and says how many more there are (20,000 projects once made a single 877 KB line).
 */

/** Items shown in one message before "and N more". */
export const LIST_LIMIT = 20;

/** The first `limit` items, and how many are left out. */
export function capped<T>(items: readonly T[], limit = LIST_LIMIT): { shown: T[]; more: number } {
  return items.length <= limit ? { shown: [...items], more: 0 } : { shown: items.slice(0, limit), more: items.length - limit };
}

/** `a, b, c and 17 more`: a list joined for a message, never longer than `limit` items. */
export function joinCapped(items: readonly string[], limit = LIST_LIMIT, separator = ', '): string {
  const { shown, more } = capped(items, limit);
  return more ? `${shown.join(separator)} and ${more} more` : shown.join(separator);
}
