/**
 * Tab completion of a path in a file question, as a shell completes: the part before the cursor is
 * completed to the longest name all matches share; a folder gets its `/`. `file:` and `~/` are kept
 * as typed. Hidden entries are offered only when the typed name starts with a dot.
 */
import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface PathCompletion {
  value: string;
  cursor: number;
  /** The names that match, when more than one does (shown under the field); at most `MAX_SHOWN`. */
  candidates: string[];
}

export const MAX_SHOWN = 12;

export function completePath(value: string, cursor: number, cwd: string): PathCompletion {
  const before = value.slice(0, cursor);
  const after = value.slice(cursor);
  const prefix = before.startsWith('file:') ? 'file:' : '';
  const typed = before.slice(prefix.length);
  const slash = typed.lastIndexOf('/');
  const folderTyped = slash >= 0 ? typed.slice(0, slash + 1) : '';
  const partial = typed.slice(slash + 1);
  const folder = resolve(cwd, (folderTyped || '.').replace(/^~(?=\/|$)/, homedir()));
  let names: string[];
  try {
    names = readdirSync(folder)
      .filter((name) => name.startsWith(partial) && (partial.startsWith('.') || !name.startsWith('.')))
      .sort();
  } catch {
    return { value, cursor, candidates: [] };
  }
  if (names.length === 0) return { value, cursor, candidates: [] };
  const common = names.reduce((a, b) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  });
  const isFolder = (name: string) => {
    try {
      return statSync(join(folder, name)).isDirectory();
    } catch {
      return false;
    }
  };
  const completed = names.length === 1 && isFolder(common) ? `${common}/` : common;
  const head = `${prefix}${folderTyped}${completed}`;
  const candidates = names.length > 1 ? names.slice(0, MAX_SHOWN).map((n) => (isFolder(n) ? `${n}/` : n)) : [];
  return { value: head + after, cursor: head.length, candidates };
}
