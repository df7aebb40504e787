/**
 * Which symbolic links a write may follow. The kernel's `protected_symlinks` rule, enforced by
 * cloudgate itself (the setting may be off, in a container say): a link in a folder that others than
 * its owner can write to (a shared or sticky 1777 folder such as /tmp, a node exporter's textfile
 * folder) is followed only when it belongs to the writing user or to the folder's owner. Anyone who can
 * write in that folder could have planted it there, pointing at a file only the writer may change.
 *
 * Every component of the path is checked, not only the last one: a planted link to a folder would send
 * the write elsewhere as surely as a link to a file.
 */
import { readFileSync } from 'node:fs';
import { lstat, readlink, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { codeOf } from '../errors.js';

const MAX_LINKS = 40; // as the kernel's ELOOP

/** A link a write went through. */
export interface FollowedLink {
  link: string;
  /** Owner uid of the link. */
  owner: number;
  /** What the link holds (relative or absolute). */
  to: string;
}

export interface WritePath {
  /** The file the path finally names, through every link (it may not exist yet). */
  path: string;
  links: FollowedLink[];
}

/** A link the rule does not let the writer follow. Nothing was written through it. */
export class LinkRefused extends Error {
  readonly code = 'ELINKREFUSED';
  constructor(
    readonly link: string,
    readonly owner: number,
    readonly folder: string,
    why: string,
  ) {
    super(`Refused to write through the link ${link} (owned by ${userName(owner)}): ${why}`);
    this.name = 'LinkRefused';
  }
  readonly advice = 'Write to a path that is not a link, or have the link replaced by one you own (or the folder owner owns); cloudgate never writes through another user\'s link in a folder others can write to.';
}

function writerUid(): number {
  return process.geteuid?.() ?? -1;
}

/** "uid 65534 (nobody)", or "uid N" when the name is unknown. */
export function userName(uid: number): string {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , id] = line.split(':');
      if (name && Number(id) === uid && id !== '') return `uid ${uid} (${name})`;
    }
  } catch {
    // No passwd file: the number alone.
  }
  return `uid ${uid}`;
}

/** The folder lets others than its owner write in it (group or world write bit). */
function othersMayWrite(mode: number): boolean {
  return (mode & 0o022) !== 0;
}

async function checkLink(link: string, owner: number, folder: string, uid: number): Promise<void> {
  if (owner === uid) return;
  const info = await stat(folder);
  if (!othersMayWrite(info.mode) || owner === info.uid) return;
  const mode = (info.mode & 0o7777).toString(8).padStart(4, '0');
  throw new LinkRefused(link, owner, folder,
    `it sits in ${folder} (mode ${mode}), where others can write, and belongs neither to you (${userName(uid)}) nor to the folder's owner (${userName(info.uid)}).`);
}

/**
 * Where a write to `path` lands, following links by the rule above; a refused link is a LinkRefused.
 * `noFinalLink`: the file itself must not be a link at all (a cache, written where it is or not at all).
 */
export async function resolveWritePath(path: string, options: { noFinalLink?: boolean; uid?: number } = {}): Promise<WritePath> {
  const uid = options.uid ?? writerUid();
  const links: FollowedLink[] = [];
  let pending = resolve(path).split('/').filter(Boolean);
  let current = '/';
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      current = resolve(current, '..');
      continue;
    }
    const next = join(current, name);
    let info;
    try {
      info = await lstat(next);
    } catch (error) {
      const code = codeOf(error);
      // Missing from here on: the write creates it (or fails naming the missing folder).
      if (code === 'ENOENT' || code === 'ENOTDIR') return { path: join(next, ...pending), links };
      throw error;
    }
    if (!info.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (links.length >= MAX_LINKS) throw Object.assign(new Error(`Too many levels of links from ${path}`), { code: 'ELOOP', path });
    if (options.noFinalLink && pending.length === 0) {
      throw new LinkRefused(next, info.uid, current, 'this file is never written through a link.');
    }
    await checkLink(next, info.uid, current, uid);
    const to = await readlink(next);
    // Swapped between the check and the read: refuse rather than trust what was not checked.
    const again = await lstat(next);
    if (!again.isSymbolicLink() || again.ino !== info.ino || again.uid !== info.uid) {
      throw new LinkRefused(next, again.uid, current, 'it changed while it was being checked.');
    }
    links.push({ link: next, owner: info.uid, to });
    if (to.startsWith('/')) current = '/';
    pending = [...to.split('/').filter(Boolean), ...pending];
  }
  return { path: current, links };
}

/** The words a write report adds about the links it went through ("" when none). */
export function describeLinks(links: FollowedLink[]): string {
  return links.map((l) => `${l.link} owned by ${userName(l.owner)}`).join(', ');
}
