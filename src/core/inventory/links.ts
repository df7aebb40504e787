/**
 * Where a write to a path lands, through the links on the way, by the ownership rule of owned-path.ts
 * (every folder, link and the file the caller's or root's; a folder others may write in only when it
 * is root's and sticky, and then only the caller's own entries in it). For commands that check a path
 * before they write it (doctor --output); the writers themselves keep the checked folder open.
 */
import { checkPath, MissingFolder, type FollowedLink } from './owned-path.js';
import { userName } from './users.js';

export { LinkRefused, PathRefused, type FollowedLink } from './owned-path.js';
export { userName } from './users.js';

export interface WritePath {
  /** The file the path finally names, through every link (it, or folders before it, may not exist yet). */
  path: string;
  links: FollowedLink[];
}

/**
 * Where a write to `path` lands; a refused folder, link or file is a PathRefused (LinkRefused for a
 * link). Missing folders are not created: the path names where they would be.
 * `noFinalLink`: the file itself must not be a link at all.
 */
export async function resolveWritePath(
  path: string,
  options: { noFinalLink?: boolean; uid?: number } = {},
): Promise<WritePath> {
  try {
    const checked = checkPath(path, { purpose: 'write', noFinalLink: options.noFinalLink, uid: options.uid });
    checked.folder.close();
    return { path: checked.path, links: checked.links };
  } catch (error) {
    if (error instanceof MissingFolder) return { path: [error.path, ...error.rest].join('/'), links: [] };
    throw error;
  }
}

/** The words a write report adds about the links it went through ("" when none). */
export function describeLinks(links: FollowedLink[]): string {
  return links.map((l) => `${l.link} owned by ${userName(l.owner)}`).join(', ');
}
