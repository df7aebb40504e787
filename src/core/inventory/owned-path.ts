/**
 * One rule for every path where cloudgate writes, reads or runs something that matters (a secret, the
 * inventory, a report a monitoring system trusts), in the spirit of OpenSSH's StrictModes and of the
 * kernel's protected_symlinks and protected_regular settings:
 *
 * - every folder of the path, every link on it and the file itself (when it exists) belong to the
 *   caller or to root;
 * - a folder others may write in (a group or world write bit) is allowed only when it is root's and
 *   sticky, as /tmp: what lies inside it on the path must then be the caller's own;
 * - a file that is read or run must not be writable by others either;
 * - a group write bit counts only when the group holds someone else (Debian's OpenSSH reads it so:
 *   a user's private group, umask 002, writes nothing for others);
 * - a folder named in CLOUDGATE_TRUSTED_FOLDERS is accepted whoever owns it and whoever may write in it
 *   (what lies inside still follows the rule).
 *
 * The walk opens each folder itself (O_PATH|O_DIRECTORY|O_NOFOLLOW, checked on the open descriptor) and
 * goes on relative to it through /proc/self/fd/N/NAME: once a folder is checked, renaming it or putting
 * a link in its place cannot send what follows elsewhere. The caller keeps the last folder open and does
 * its creates, renames, links and deletes relative to it (CheckedFolder.at).
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  type Stats,
} from 'node:fs';
import { constants } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { codeOf } from '../errors.js';
import { callerUid, groupHoldsOnly, loginOf, userName } from './users.js';

/** Linux's O_PATH: a descriptor that names a file or folder without reading it (Node has no constant for it). */
const O_PATH = 0o10000000;
const { O_DIRECTORY, O_NOFOLLOW } = constants;
const MAX_LINKS = 40; // as the kernel's ELOOP

export const TRUSTED_FOLDERS_ENV = 'CLOUDGATE_TRUSTED_FOLDERS';

export type Purpose = 'write' | 'read' | 'run';

let procFd: boolean | undefined;
/** Whether paths relative to a descriptor work here (/proc mounted). */
function viaProc(): boolean {
  procFd ??= existsSync('/proc/self/fd');
  return procFd;
}

/** The real paths of the folders held open, by descriptor: errors name those, not /proc/self/fd/N. */
const openFolders = new Map<number, string>();

/** `text` with each /proc/self/fd/N of a checked folder written as that folder's real path. */
export function shownText(text: string): string {
  return text.replace(/\/proc\/self\/fd\/(\d+)/g, (whole, fd: string) => openFolders.get(Number(fd)) ?? whole);
}

/** A folder that passed the rule, held open: names inside it are reached through it, not through its path. */
export class CheckedFolder {
  private closed = false;
  constructor(
    readonly fd: number,
    /** Its real path, for messages. */
    readonly path: string,
    /** Others may create files in it (root's sticky folder): only the caller's own entries are touched there. */
    readonly shared: boolean,
    readonly uid: number,
  ) {
    openFolders.set(fd, path === '/' ? '' : path);
  }

  /** The path of `name` inside this very folder (the folder itself for ""). */
  at(name = ''): string {
    if (!viaProc()) return name ? join(this.path, name) : this.path;
    return name ? `/proc/self/fd/${this.fd}/${name}` : `/proc/self/fd/${this.fd}`;
  }

  /** `name`'s real path, for messages. */
  shown(name: string): string {
    return join(this.path, name);
  }

  /** Whether an entry found inside may be touched (deleted, pruned): the caller's own only. */
  owns(info: Stats): boolean {
    return info.uid === this.uid;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    openFolders.delete(this.fd);
    try {
      closeSync(this.fd);
    } catch {
      // Already gone with the process.
    }
  }
}

/** A link a write or read went through. */
export interface FollowedLink {
  link: string;
  /** Owner uid of the link. */
  owner: number;
  /** What the link holds (relative or absolute). */
  to: string;
}

export interface CheckedPath {
  /** The checked folder that holds the file (open: close it when done). */
  folder: CheckedFolder;
  /** The file's name in that folder. */
  name: string;
  /** The real path of the file, through every link. */
  path: string;
  links: FollowedLink[];
  /** The file's stats (not followed) when something exists at the path. */
  existing?: Stats;
  /** The folders this walk created, outermost first (real paths). */
  createdFolders: string[];
}

/** The rule refused the path; nothing was done with it. `advice` says how to fix it. */
export class PathRefused extends Error {
  readonly code: string = 'EPATHREFUSED';
  constructor(
    message: string,
    readonly advice: string,
    /** What was refused: the folder, link or file. */
    readonly subject: string,
    readonly owner: number,
    readonly purpose: Purpose,
  ) {
    super(message);
    this.name = 'PathRefused';
  }
}

/** A link the rule does not let the caller follow. */
export class LinkRefused extends PathRefused {
  override readonly code = 'ELINKREFUSED';
  constructor(
    readonly link: string,
    owner: number,
    readonly folder: string,
    why: string,
    purpose: Purpose = 'write',
  ) {
    super(
      `Refused to ${purpose} through the link ${link} (owned by ${userName(owner)}): ${why}`,
      `${purpose === 'write' ? 'Write to' : 'Give'} a path that is not a link, or have the link replaced by one you own (or root owns); cloudgate never ${purpose === 'write' ? 'writes' : purpose === 'read' ? 'reads' : 'runs'} through another user's link.`,
      link,
      owner,
      purpose,
    );
    this.name = 'LinkRefused';
  }
}

export interface CheckOptions {
  purpose: Purpose;
  /** Create the missing folders of the path (mode `folderMode`, default 0755 less the umask). */
  createFolders?: boolean;
  folderMode?: number;
  /** The file itself must not be a link at all (a cache, written where it is or not at all). */
  noFinalLink?: boolean;
  /** Whose rule: the caller's by default. */
  uid?: number;
}

const modeText = (mode: number) => (mode & 0o7777).toString(8).padStart(4, '0');

/** Others than the owner can change what is in it: a world write bit, or a group one the group's other members could use. */
export function othersMayWrite(info: Stats): boolean {
  if ((info.mode & 0o002) !== 0) return true;
  return (info.mode & 0o020) !== 0 && !groupHoldsOnly(info.gid, info.uid);
}

function trustedFolders(): Set<string> {
  const list = (process.env[TRUSTED_FOLDERS_ENV] ?? '').split(':').filter((p) => isAbsolute(p));
  return new Set(
    list.flatMap((p) => {
      try {
        return [realpathSync(p)];
      } catch {
        return [resolve(p)];
      }
    }),
  );
}

/** The trust advice every refusal of a folder ends with. */
const trustAdvice = (folder: string) =>
  `If you trust ${folder} and everyone who can write in it, name it in ${TRUSTED_FOLDERS_ENV} (docs/security.md).`;

function refuseOwner(
  given: string,
  purpose: Purpose,
  kind: 'folder' | 'file',
  subject: string,
  info: Stats,
  parent: CheckedFolder | undefined,
  uid: number,
): never {
  const inShared = parent?.shared === true;
  const where = inShared
    ? ` and lies in ${parent.path} (mode ${modeText(modeOf(parent))}), where anyone can create files: there cloudgate uses only what is yours (${userName(uid)})`
    : `, neither to you (${userName(uid)}) nor to root`;
  const message = `Refused to ${purpose} ${given}: the ${kind} ${subject} belongs to ${userName(info.uid)}${where}.`;
  const advice =
    kind === 'folder'
      ? inShared
        ? `Someone else made ${subject}: use a folder of your own (a new one, or remove this one once you know what it is). ${trustAdvice(subject)}`
        : `Use a folder that belongs to you or to root, or have this one given to you (chown ${loginOf(uid)} ${subject}). ${trustAdvice(subject)}`
      : purpose === 'write'
        ? `Someone else made ${subject}: check what it is and remove it, then run again; cloudgate never writes into, replaces or deletes another user's file.`
        : `Use a file of your own (or root's); if this one is yours to use, have it owned by you (chown ${loginOf(uid)} ${subject}).`;
  throw new PathRefused(message, advice, subject, info.uid, purpose);
}

/** The folder's mode as its descriptor says (0 when it cannot be read). */
function modeOf(folder: CheckedFolder): number {
  try {
    return fstatSync(folder.fd).mode;
  } catch {
    return 0;
  }
}

/** Checks a folder of the path; returns whether others may create files in it (root's sticky folder). */
function checkFolder(
  given: string,
  purpose: Purpose,
  path: string,
  info: Stats,
  parent: CheckedFolder | undefined,
  uid: number,
  trusted: Set<string>,
): boolean {
  if (trusted.has(path)) return false;
  const ownerOk = parent?.shared ? info.uid === uid : info.uid === uid || info.uid === 0;
  if (!ownerOk) refuseOwner(given, purpose, 'folder', path, info, parent, uid);
  if (!othersMayWrite(info)) return false;
  if (info.uid === 0 && (info.mode & 0o1000) !== 0) return true;
  throw new PathRefused(
    `Refused to ${purpose} ${given}: others than its owner (${userName(info.uid)}) can write in the folder ${path} (mode ${modeText(info.mode)}), and it is not a sticky folder of root's such as /tmp.`,
    `Take their write access away (chmod go-w ${path}) or use another folder. ${trustAdvice(path)}`,
    path,
    info.uid,
    purpose,
  );
}

/** Checks the file itself (when it exists). */
function checkFile(
  given: string,
  purpose: Purpose,
  path: string,
  info: Stats,
  parent: CheckedFolder,
  uid: number,
): void {
  const ownerOk = parent.shared ? info.uid === uid : info.uid === uid || info.uid === 0;
  if (!ownerOk) refuseOwner(given, purpose, 'file', path, info, parent, uid);
  if (purpose !== 'write' && info.isFile() && othersMayWrite(info)) {
    throw new PathRefused(
      `Refused to ${purpose} ${given}: others than its owner can change ${path} (mode ${modeText(info.mode)}).`,
      `Take their write access away: chmod go-w ${path}.`,
      path,
      info.uid,
      purpose,
    );
  }
}

function checkLink(purpose: Purpose, link: string, info: Stats, parent: CheckedFolder, uid: number): void {
  const ownerOk = parent.shared ? info.uid === uid : info.uid === uid || info.uid === 0;
  if (ownerOk) return;
  const mode = modeOf(parent);
  const why = parent.shared
    ? `it sits in ${parent.path} (mode ${modeText(mode)}), where others can write, and does not belong to you (${userName(uid)}): there only your own links are followed.`
    : `it belongs neither to you (${userName(uid)}) nor to root.`;
  throw new LinkRefused(link, info.uid, parent.path, why, purpose);
}

function openPathFd(path: string, directory: boolean): number {
  return openSync(path, O_PATH | O_NOFOLLOW | (directory ? O_DIRECTORY : 0));
}

function openRoot(given: string, purpose: Purpose, uid: number, trusted: Set<string>): CheckedFolder {
  const fd = openPathFd('/', true);
  try {
    const shared = checkFolder(given, purpose, '/', fstatSync(fd), undefined, uid, trusted);
    return new CheckedFolder(fd, '/', shared, uid);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** A folder of the path is missing (and is not to be created). */
export class MissingFolder extends Error {
  readonly code = 'ENOENT';
  constructor(
    /** The real path of the first missing folder. */
    readonly path: string,
    /** The names after it. */
    readonly rest: string[],
  ) {
    super(`the folder ${join(path, ...rest.slice(0, -1))} does not exist`);
    this.name = 'MissingFolder';
  }

  /** The folder the file would go in (its first missing part and what follows). */
  get folder(): string {
    return join(this.path, ...this.rest.slice(0, -1));
  }
}

/**
 * Walks `path` from `/`, checking each folder, link and the file by the rule above. Returns the file's
 * checked folder (open) and name; throws PathRefused (or LinkRefused), or MissingFolder when a folder
 * is missing and `createFolders` is not set.
 */
export function checkPath(path: string, options: CheckOptions): CheckedPath {
  const uid = options.uid ?? callerUid();
  const purpose = options.purpose;
  const trusted = trustedFolders();
  const links: FollowedLink[] = [];
  const createdFolders: string[] = [];
  let folder = openRoot(path, purpose, uid, trusted);
  const move = (next: CheckedFolder) => {
    folder.close();
    folder = next;
  };
  try {
    let pending = resolve(path).split('/').filter(Boolean);
    while (pending.length > 0) {
      const name = pending.shift()!;
      if (name === '.') continue;
      const last = pending.length === 0;
      if (name === '..') {
        const fd = openPathFd(folder.at('..'), true);
        const up = dirname(folder.path);
        try {
          move(new CheckedFolder(fd, up, checkFolder(path, purpose, up, fstatSync(fd), undefined, uid, trusted), uid));
        } catch (error) {
          closeSync(fd);
          throw error;
        }
        continue;
      }
      let fd: number;
      try {
        fd = openPathFd(folder.at(name), false);
      } catch (error) {
        const code = codeOf(error);
        if (code !== 'ENOENT') throw error;
        if (last) return { folder, name, path: folder.shown(name), links, createdFolders };
        if (!options.createFolders) throw new MissingFolder(folder.shown(name), pending);
        try {
          mkdirSync(folder.at(name), options.folderMode ?? 0o755);
          createdFolders.push(folder.shown(name));
        } catch (made) {
          if (codeOf(made) !== 'EEXIST') throw made; // made in between by someone: checked below like any other
        }
        pending.unshift(name);
        continue;
      }
      let info: Stats;
      try {
        info = fstatSync(fd);
      } catch (error) {
        closeSync(fd);
        throw error;
      }
      const shown = folder.shown(name);
      if (info.isSymbolicLink()) {
        closeSync(fd);
        if (links.length >= MAX_LINKS)
          throw Object.assign(new Error(`Too many levels of links from ${path}`), { code: 'ELOOP', path });
        if (options.noFinalLink && last)
          throw new LinkRefused(shown, info.uid, folder.path, 'this file is never written through a link.', purpose);
        checkLink(purpose, shown, info, folder, uid);
        const to = readlinkSync(folder.at(name));
        const again = lstatSync(folder.at(name));
        if (!again.isSymbolicLink() || again.ino !== info.ino || again.uid !== info.uid) {
          throw new LinkRefused(shown, again.uid, folder.path, 'it changed while it was being checked.', purpose);
        }
        links.push({ link: shown, owner: info.uid, to });
        if (to.startsWith('/')) move(openRoot(path, purpose, uid, trusted));
        pending = [...to.split('/').filter(Boolean), ...pending];
        continue;
      }
      if (info.isDirectory() && !last) {
        try {
          const shared = checkFolder(path, purpose, shown, info, folder, uid, trusted);
          // Reopened as a folder: the O_PATH descriptor above is what was checked, and is kept.
          move(new CheckedFolder(fd, shown, shared, uid));
        } catch (error) {
          closeSync(fd);
          throw error;
        }
        continue;
      }
      closeSync(fd);
      if (!last) throw Object.assign(new Error(`${shown} is not a folder`), { code: 'ENOTDIR', path: shown });
      checkFile(path, purpose, shown, info, folder, uid);
      return { folder, name, path: shown, links, existing: info, createdFolders };
    }
    // The path names `/` itself.
    throw Object.assign(new Error(`${path} is a folder`), { code: 'EISDIR', path });
  } catch (error) {
    folder.close();
    throw error;
  }
}

/** Checks the rule for `info`, found at `name` in `folder` (a file opened after the walk): the same as the walk's last step. */
export function checkOpened(given: string, purpose: Purpose, folder: CheckedFolder, name: string, info: Stats): void {
  checkFile(given, purpose, folder.shown(name), info, folder, folder.uid);
}

/** What a refusal means to a command: a write that could not be done (exit 1) or an input refused (exit 2). */
export function isRefusal(error: unknown): error is PathRefused {
  return error instanceof PathRefused;
}

export { modeText };
