/**
 * Which paths an identity service serves (the platform's documented ones or the standard Keystone
 * ones), remembered between runs of `cloudgate token` so that a healthy chain costs one request per
 * step. A small JSON file in the user's cache folder, keyed by the identity URL without credentials or
 * query; it holds no secret, and is written 0600 all the same. Any problem reading or writing it is
 * ignored: the chain then finds the flavour again by asking. It is never written through a link (the
 * file itself), nor through a folder link the link rule refuses: `warn` is told why.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { NothingWritten, writeFilesAtomically } from '../../inventory/atomic-write.js';
import { PathRefused } from '../../inventory/links.js';
import { readOwnedFileSync } from '../../safe-read.js';
import type { IdentityFlavour } from './identity.js';
import { asRecord, memberOf } from '../../records.js';

const FILE_NAME = 'identity-paths.json';
const MAX_ENTRIES = 50;

interface Entry {
  flavour: IdentityFlavour;
  learned_at: string;
}

/** `$XDG_CACHE_HOME/cloudgate/identity-paths.json`, else `~/.cache/cloudgate/identity-paths.json`. */
export function flavourCacheFile(env: NodeJS.ProcessEnv): string {
  // The XDG rules say a relative XDG_CACHE_HOME is invalid and must be ignored.
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  return join(xdg ?? join(env.HOME || homedir(), '.cache'), 'cloudgate', FILE_NAME);
}

/** The identity URL as a key: scheme, host, port and path; never user:password or a query. */
export function cacheKey(identityUrl: string): string {
  try {
    const url = new URL(identityUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return identityUrl.replace(/[?#].*$/, '');
  }
}

/** The cache's entries, each an `Entry` when no one else wrote the file: read with memberOf. */
function readAll(file: string): Record<string, unknown> {
  try {
    return asRecord(JSON.parse(readOwnedFileSync(file, { what: 'the cache file', maxBytes: 64 * 1024 }))) ?? {};
  } catch {
    return {};
  }
}

export function readFlavour(env: NodeJS.ProcessEnv, identityUrl: string): IdentityFlavour | undefined {
  const flavour = memberOf(readAll(flavourCacheFile(env))[cacheKey(identityUrl)], 'flavour');
  return flavour === 'platform' || flavour === 'keystone' ? flavour : undefined;
}

/** Records the flavour when it changed; returns the file written, or undefined (unchanged or failed). */
export async function writeFlavour(
  env: NodeJS.ProcessEnv,
  identityUrl: string,
  flavour: IdentityFlavour,
  warn?: (line: string) => void,
): Promise<string | undefined> {
  const file = flavourCacheFile(env);
  const entries = readAll(file);
  const key = cacheKey(identityUrl);
  if (memberOf(entries[key], 'flavour') === flavour) return undefined;
  delete entries[key];
  const kept = Object.entries(entries).slice(-(MAX_ENTRIES - 1));
  const entry: Entry = { flavour, learned_at: new Date().toISOString() };
  const doc = Object.fromEntries([...kept, [key, entry]]);
  try {
    // Its folders are made (0700) where the ownership rule lets the file go, never through a refused link.
    const content = JSON.stringify(doc, null, 2) + '\n';
    await writeFilesAtomically(
      [{ path: file, content, mode: 0o600, holdsSecret: false, description: 'identity paths cache', noLink: true }],
      new Date(),
      { backup: false, folderMode: 0o700 },
    );
    return file;
  } catch (error) {
    if ((error instanceof NothingWritten && error.advice) || error instanceof PathRefused)
      warn?.(`warning: the identity paths cache was not written: ${error.message}`);
    return undefined;
  }
}
