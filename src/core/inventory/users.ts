/**
 * Who a uid is, and who can write through a group's write bit, from /etc/passwd and /etc/group (read
 * once per process). Users and groups that only a directory service knows are not in these files: a
 * group found nowhere counts as one others may belong to.
 */
import { readFileSync } from 'node:fs';

interface Account {
  name: string;
  uid: number;
  gid: number;
}

let accounts: Account[] | undefined;
let groups: Map<number, string[]> | undefined;

function lines(file: string): string[][] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(':'));
  } catch {
    return [];
  }
}

function passwd(): Account[] {
  accounts ??= lines('/etc/passwd').flatMap(([name, , uid, gid]) =>
    name && uid !== '' && gid !== '' && Number.isInteger(Number(uid))
      ? [{ name, uid: Number(uid), gid: Number(gid) }]
      : [],
  );
  return accounts;
}

function groupMembers(): Map<number, string[]> {
  groups ??= new Map(
    lines('/etc/group').flatMap(([name, , gid, members]): [number, string[]][] =>
      name && gid !== '' && Number.isInteger(Number(gid))
        ? [[Number(gid), (members ?? '').split(',').filter(Boolean)]]
        : [],
    ),
  );
  return groups;
}

/** "uid 65534 (nobody)", or "uid N" when the name is unknown. */
export function userName(uid: number): string {
  const name = passwd().find((a) => a.uid === uid)?.name;
  return name ? `uid ${uid} (${name})` : `uid ${uid}`;
}

/** The login name of `uid`, or the number: what `chown` takes. */
export function loginOf(uid: number): string {
  return passwd().find((a) => a.uid === uid)?.name ?? String(uid);
}

/**
 * Whether the group `gid` holds nobody but `owner` (a user's private group, root's own group): its
 * write bit then lets no one else write. Debian's OpenSSH accepts such group-writable paths the same way.
 */
export function groupHoldsOnly(gid: number, owner: number): boolean {
  const members = groupMembers().get(gid);
  if (members === undefined) return false;
  const ownerName = passwd().find((a) => a.uid === owner)?.name;
  if (members.some((m) => m !== ownerName)) return false;
  return !passwd().some((a) => a.gid === gid && a.uid !== owner);
}

/** The effective uid of this process (-1 where there is none, on Windows). */
export function callerUid(): number {
  return process.geteuid?.() ?? -1;
}

/** For tests that add a user: forget what was read. */
export function forgetAccountsForTests(): void {
  accounts = undefined;
  groups = undefined;
}
