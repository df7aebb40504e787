import { spawn, spawnSync } from 'node:child_process';
import {
  chmod,
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  KEEP_BACKUPS,
  describeWritten,
  tempPathFor,
  writeFilesAtomically,
  type FileToWrite,
} from '../../../../src/core/inventory/atomic-write.js';

const NOW = new Date('2026-01-02T03:04:05Z');
const STAMP = '20260102T030405Z';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const inventory = (path: string, content = 'new: 1\n', mode = 0o600): FileToWrite => ({
  path,
  content,
  mode,
  holdsSecret: true,
  description: 'inventory',
});

/** A pid that existed and no longer does. */
function deadPid(): number {
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
  );
}

describe('backups never follow a link', () => {
  it('a dangling link planted under the next backup name in a 1777 folder is not written through', async () => {
    const shared = join(dir, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o1777);
    const target = join(shared, 'inv.yml');
    await writeFile(target, 'secret: s3cr3t\n', { mode: 0o600 });
    const stolen = join(dir, 'stolen');
    await symlink(stolen, `${target}.${STAMP}.bak`);

    const [written] = await writeFilesAtomically([inventory(target)], NOW);

    await expect(lstat(stolen)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readlink(`${target}.${STAMP}.bak`)).toBe(stolen);
    expect(written!.backupPath).toBe(`${target}.${STAMP}-1.bak`);
    const backup = await lstat(written!.backupPath!);
    expect(backup.isFile()).toBe(true);
    expect(backup.mode & 0o777).toBe(0o600);
    expect(await readFile(written!.backupPath!, 'utf8')).toBe('secret: s3cr3t\n');
    expect(await readFile(target, 'utf8')).toBe('new: 1\n');
  });

  it('a link to an existing file under the backup name leaves that file and its mode alone', async () => {
    const victim = join(dir, 'victim');
    await writeFile(victim, 'victim\n', { mode: 0o644 });
    const target = join(dir, 'inv.yml');
    await writeFile(target, 'old: 1\n');
    await symlink(victim, `${target}.${STAMP}.bak`);
    await writeFilesAtomically([inventory(target)], NOW);
    expect(await readFile(victim, 'utf8')).toBe('victim\n');
    expect((await stat(victim)).mode & 0o777).toBe(0o644);
  });
});

describe('owner, group and mode', () => {
  it("keeps the group of a replaced file but never gives the new one away: it is the caller's (run as root)", async () => {
    expect(process.getuid!()).toBe(0);
    const target = join(dir, 'inv.yml');
    await writeFile(target, 'old: 1\n', { mode: 0o640 });
    await chown(target, 0, 65534);
    const [written] = await writeFilesAtomically([inventory(target, 'new: 1\n', 0o640)], NOW);
    const info = await stat(target);
    expect([info.uid, info.gid, info.mode & 0o777]).toEqual([0, 65534, 0o640]);
    const backup = await stat(written!.backupPath!);
    expect([backup.uid, backup.gid, backup.mode & 0o777]).toEqual([0, 65534, 0o600]);
  });

  it('sets the exact mode whatever the umask', async () => {
    const target = join(dir, 'inv.yml');
    await writeFilesAtomically([inventory(target, 'a: 1\n', 0o644)], NOW);
    expect((await stat(target)).mode & 0o777).toBe(0o644);
  });
});

describe('failures and roll-back', () => {
  it('a failure before any rename changes nothing: no temp, no .bak, the mode kept', async () => {
    const target = join(dir, 'inv.yml');
    await writeFile(target, 'old: 1\n', { mode: 0o644 });
    const folder = join(dir, 'manifest.yaml');
    await mkdir(folder);
    await writeFile(join(folder, 'inside'), 'x');
    await expect(
      writeFilesAtomically(
        [
          inventory(target, 'new: 1\n', 0o600),
          { path: folder, content: 'x', mode: 0o600, holdsSecret: true, description: 'manifest' },
        ],
        NOW,
      ),
    ).rejects.toThrow(/Nothing was written/);
    expect(await readFile(target, 'utf8')).toBe('old: 1\n');
    expect((await stat(target)).mode & 0o777).toBe(0o644);
    expect((await readdir(dir)).sort()).toEqual(['inv.yml', 'manifest.yaml']);
  });

  it('refuses to replace something that is not a regular file', async () => {
    const target = join(dir, 'fifo');
    spawnSync('mkfifo', [target]);
    await expect(writeFilesAtomically([inventory(target)], NOW)).rejects.toThrow(/Nothing was written/);
    expect((await lstat(target)).isFIFO()).toBe(true);
  });
});

describe('a linked target', () => {
  it('is written through: the file it points to is replaced, the link kept, the backup beside that file', async () => {
    await mkdir(join(dir, 'shared'));
    await mkdir(join(dir, 'site'));
    const real = join(dir, 'shared', 'certs.yml');
    await writeFile(real, 'old: 1\n', { mode: 0o640 });
    const link = join(dir, 'site', 'certs.yml');
    await symlink('../shared/certs.yml', link);

    const [written] = await writeFilesAtomically([inventory(link, 'new: 1\n', 0o640)], NOW);

    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe('../shared/certs.yml');
    expect(await readFile(real, 'utf8')).toBe('new: 1\n');
    expect(written).toMatchObject({ path: link, linkTarget: real, backupPath: `${real}.${STAMP}.bak` });
    expect(await readdir(join(dir, 'site'))).toEqual(['certs.yml']);
    expect(describeWritten(written!)).toContain(`written through the link to ${real}`);
  });

  it('a dangling link creates the file it points to', async () => {
    const link = join(dir, 'certs.yml');
    await symlink('real/certs.yml', link);
    const [written] = await writeFilesAtomically([inventory(link)], NOW);
    expect(await readFile(join(dir, 'real', 'certs.yml'), 'utf8')).toBe('new: 1\n');
    expect(written!.linkTarget).toBe(join(dir, 'real', 'certs.yml'));
  });
});

describe('temps and backups left behind', () => {
  it('names a temp after the target and the pid', () => {
    expect(basename(tempPathFor('/x/inv.yml'))).toMatch(
      new RegExp(`^\\.inv\\.yml\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`),
    );
  });

  it('removes the temps of dead processes beside the target, not those of live ones nor other files', async () => {
    const target = join(dir, 'inv.yml');
    const dead = `.inv.yml.${deadPid()}.0a1b2c.tmp`;
    const sleeper = spawn('sleep', ['30']);
    const live = `.inv.yml.${sleeper.pid}.0a1b2c.tmp`;
    try {
      for (const name of [dead, live, '.other.yml.1.aa.tmp', 'inv.yml']) await writeFile(join(dir, name), 'secret\n');
      await writeFilesAtomically([inventory(target)], NOW, { backup: false });
      expect((await readdir(dir)).sort()).toEqual([live, '.other.yml.1.aa.tmp', 'inv.yml'].sort());
    } finally {
      sleeper.kill();
    }
  });

  it(`keeps the last ${KEEP_BACKUPS} backups of a file`, async () => {
    const target = join(dir, 'inv.yml');
    await writeFile(target, 'old\n');
    const old = [
      '20250101T000000Z',
      '20250102T000000Z',
      '20250103T000000Z',
      '20250104T000000Z',
      '20250105T000000Z',
      '20250105T000000Z-1',
    ].map((s) => `inv.yml.${s}.bak`);
    for (const name of old) await writeFile(join(dir, name), 'older\n');
    await writeFile(join(dir, 'inv.yml.mine.bak'), 'kept: not a cloudgate backup\n');
    await writeFile(join(dir, 'other.yml.20200101T000000Z.bak'), 'kept: another file\n');

    await writeFilesAtomically([inventory(target)], NOW);

    expect((await readdir(dir)).filter((f) => f.startsWith('inv.yml.')).sort()).toEqual([
      'inv.yml.20250103T000000Z.bak',
      'inv.yml.20250104T000000Z.bak',
      'inv.yml.20250105T000000Z-1.bak',
      'inv.yml.20250105T000000Z.bak',
      `inv.yml.${STAMP}.bak`,
      'inv.yml.mine.bak',
    ]);
    expect(await readdir(dir)).toContain('other.yml.20200101T000000Z.bak');
  });

  it('many writes within one second keep the last backups, the newest one last', async () => {
    const target = join(dir, 'inv.yml');
    await writeFile(target, 'v0\n');
    for (let i = 1; i <= KEEP_BACKUPS + 2; i++)
      await writeFilesAtomically([{ ...inventory(target), content: `v${i}\n` }], NOW);
    const backups = (await readdir(dir)).filter((f) => f.startsWith('inv.yml.') && f.endsWith('.bak'));
    expect(backups).toHaveLength(KEEP_BACKUPS);
    // The backups hold v2..v6 (the versions replaced last), numbered in the order they were taken.
    const byNumber = backups.sort(
      (a, b) => Number(/-(\d+)\.bak$/.exec(a)?.[1] ?? 0) - Number(/-(\d+)\.bak$/.exec(b)?.[1] ?? 0),
    );
    expect(await Promise.all(byNumber.map((f) => readFile(join(dir, f), 'utf8')))).toEqual([
      'v2\n',
      'v3\n',
      'v4\n',
      'v5\n',
      'v6\n',
    ]);
  });
});

describe('large files are written and backed up a piece at a time', () => {
  it('keeps every byte: a surrogate pair across a piece boundary, multi-byte text, an empty file', async () => {
    const target = join(dir, 'inv.yml');
    const empty = join(dir, 'empty.yml');
    const previous = `old: "${'ü'.repeat(3 << 20)}"\n`;
    await writeFile(target, previous);
    // The pieces are 2^20 UTF-16 units: the emoji's two units straddle the first boundary.
    const content = `${'a'.repeat((1 << 20) - 1)}\u{1F600}${'é'.repeat(2 << 20)}\n`;
    const [written] = await writeFilesAtomically([inventory(target, content), inventory(empty, '')], NOW);
    expect(await readFile(target, 'utf8')).toBe(content);
    expect(await readFile(written!.backupPath!, 'utf8')).toBe(previous);
    expect((await stat(empty)).size).toBe(0);
  });
});
