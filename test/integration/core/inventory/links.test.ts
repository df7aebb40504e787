/**
 * The link rule of every write, as root (tests run as root here and in CI): a link planted by another
 * user (uid 65534) in a sticky 1777 folder is never followed; the writer's own link, or one in a folder
 * only its owner can write, is followed and reported.
 */
import { chmodSync, chownSync, lchownSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  describeWritten,
  writeFilesAtomically,
  type FileToWrite,
} from '../../../../src/core/inventory/atomic-write.js';
import { LinkRefused, resolveWritePath } from '../../../../src/core/inventory/links.js';
import { lockInventory } from '../../../../src/core/inventory/lock.js';
import { WriteError } from '../../../../src/core/errors.js';

const NOBODY = 65534;
const file = (path: string, content = 'new: 1\n'): FileToWrite => ({
  path,
  content,
  mode: 0o644,
  holdsSecret: false,
  description: 'report',
});

let dir: string;
let shared: string;
let victim: string;
beforeEach(async () => {
  expect(process.getuid!()).toBe(0); // the rule is about root following another user's link
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-links-'));
  shared = join(dir, 'textfile');
  await mkdir(shared);
  chmodSync(shared, 0o1777);
  victim = join(dir, 'root-only');
  await writeFile(victim, 'root: secret\n', { mode: 0o600 });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A link owned by `uid`, as another user would plant it. */
async function plant(link: string, to: string, uid: number): Promise<void> {
  await symlink(to, link);
  lchownSync(link, uid, uid);
}

describe('a link another user planted in a sticky world-writable folder', () => {
  it('is not written through: the root-only file it points to is untouched, the error names the link and its owner', async () => {
    const link = join(shared, 'cloudgate.prom');
    await plant(link, victim, NOBODY);

    const failure = await writeFilesAtomically([file(link)], new Date(), { backup: false }).catch(
      (e: Error & { advice?: string }) => e,
    );

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain(link);
    expect((failure as Error).message).toContain(`uid ${NOBODY}`);
    expect((failure as { advice?: string }).advice).toMatch(/not a link/);
    expect(await readFile(victim, 'utf8')).toBe('root: secret\n');
    expect((await stat(victim)).mode & 0o777).toBe(0o600);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
  });

  it('is refused as a folder on the way too (a planted link to a folder)', async () => {
    const etc = join(dir, 'etc');
    await mkdir(etc);
    await plant(join(shared, 'sub'), etc, NOBODY);
    await expect(resolveWritePath(join(shared, 'sub', 'passwd'))).rejects.toBeInstanceOf(LinkRefused);
    await expect(writeFilesAtomically([file(join(shared, 'sub', 'passwd'))])).rejects.toThrow(
      /Refused to write through the link/,
    );
    await expect(lstat(join(etc, 'passwd'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('is refused for a dangling link as well (no file created where it points)', async () => {
    const link = join(shared, 'inventory.yml');
    await plant(link, join(dir, 'created-by-root'), NOBODY);
    await expect(writeFilesAtomically([file(link)])).rejects.toThrow(/owned by uid 65534/);
    await expect(lstat(join(dir, 'created-by-root'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps the inventory lock from being taken through it (a write error, exit 1)', async () => {
    const link = join(shared, 'certs.yml');
    await plant(link, victim, NOBODY);
    const failure = await lockInventory(link).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WriteError);
    expect((failure as Error).message).toContain(link);
    await expect(lstat(`${victim}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('links the rule allows, reported in the write', () => {
  it("the writer's own link in the sticky folder", async () => {
    const real = join(dir, 'real.prom');
    const link = join(shared, 'cloudgate.prom');
    await symlink(real, link);
    const [written] = await writeFilesAtomically([file(link)], new Date(), { backup: false });
    expect(await readFile(real, 'utf8')).toBe('new: 1\n');
    expect(await readlink(link)).toBe(real);
    expect(written).toMatchObject({ linkTarget: real, links: [{ link, owner: 0 }] });
    expect(describeWritten(written!)).toContain(`written through the link to ${real}`);
    expect(describeWritten(written!)).toContain(`${link} owned by uid 0`);
  });

  it("root's own link in root's folder, to a file of root's", async () => {
    const own = join(dir, 'own');
    await mkdir(own, { mode: 0o755 });
    const link = join(own, 'inventory.yml');
    await symlink(victim, link);
    const [written] = await writeFilesAtomically([file(link)], new Date(), { backup: false });
    expect(written!.links).toEqual([{ link, owner: 0, to: victim }]);
    expect(await readFile(victim, 'utf8')).toBe('new: 1\n');
  });
});

describe('links the rule refuses since it is about owners, not only shared folders', () => {
  it("another user's link even in a folder only root can write (0755): refused, the file it names untouched", async () => {
    const own = join(dir, 'own');
    await mkdir(own, { mode: 0o755 });
    chmodSync(own, 0o755);
    const link = join(own, 'inventory.yml');
    await plant(link, victim, NOBODY);
    await expect(writeFilesAtomically([file(link)], new Date(), { backup: false })).rejects.toThrow(
      /Refused to write through the link .* \(owned by uid 65534/,
    );
    expect(await readFile(victim, 'utf8')).toBe('root: secret\n');
  });

  it('a link owned by the owner of a shared folder (the kernel would follow it): the folder itself is refused', async () => {
    const theirs = join(dir, 'theirs');
    await mkdir(theirs);
    chmodSync(theirs, 0o1777);
    chownSync(theirs, NOBODY, NOBODY);
    const real = join(dir, 'real.yml');
    const link = join(theirs, 'x.yml');
    await plant(link, real, NOBODY);
    await expect(resolveWritePath(link)).rejects.toThrow(/the folder .*theirs belongs to uid 65534/);
  });
});

describe('a file written only where it is (a cache)', () => {
  it("is never written through a link, even the writer's own", async () => {
    const real = join(dir, 'elsewhere.json');
    const link = join(dir, 'cache.json');
    await symlink(real, link);
    await expect(writeFilesAtomically([{ ...file(link), noLink: true }])).rejects.toThrow(
      /never written through a link/,
    );
    await expect(lstat(real)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('missing folders', () => {
  it('are created by default, and refused naming the folder with createFolders: false', async () => {
    const missing = join(dir, 'no', 'such');
    await expect(
      writeFilesAtomically([file(join(missing, 'x.prom'))], new Date(), { createFolders: false }),
    ).rejects.toMatchObject({
      message: expect.stringContaining(`the folder ${missing} does not exist`),
      advice: expect.stringContaining('mkdir -p'),
    });
    await expect(lstat(join(dir, 'no'))).rejects.toMatchObject({ code: 'ENOENT' });
    await writeFilesAtomically([file(join(missing, 'x.prom'))]);
    expect(await readFile(join(missing, 'x.prom'), 'utf8')).toBe('new: 1\n');
  });
});
