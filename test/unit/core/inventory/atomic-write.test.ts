import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically } from '../../../../src/core/inventory/atomic-write.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeFilesAtomically', () => {
  it('writes with the given mode and backs up the previous version', async () => {
    const target = join(dir, 'certificates.yml');
    await writeFile(target, 'old: 1\n', { mode: 0o644 });
    const [written] = await writeFilesAtomically(
      [{ path: target, content: 'new: 1\n', mode: 0o600, holdsSecret: true, description: 'inventory' }],
      new Date('2026-01-02T03:04:05Z'),
    );
    expect(await readFile(target, 'utf8')).toBe('new: 1\n');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(written.backupPath).toBe(`${target}.20260102T030405Z.bak`);
    expect(await readFile(written.backupPath!, 'utf8')).toBe('old: 1\n');
    expect((await stat(written.backupPath!)).mode & 0o777).toBe(0o600);
  });

  it('changes no file when one of the writes fails', async () => {
    const target = join(dir, 'certificates.yml');
    await writeFile(target, 'old: 1\n');
    const blocked = join(dir, 'blocker');
    await writeFile(blocked, 'a file where a folder is needed');
    await expect(
      writeFilesAtomically([
        { path: target, content: 'new: 1\n', mode: 0o644, holdsSecret: false, description: 'inventory' },
        {
          path: join(dir, 'new', 'folder', 'x.yaml'),
          content: 'x',
          mode: 0o600,
          holdsSecret: true,
          description: 'manifest',
        },
        { path: join(blocked, 'manifest.yaml'), content: 'x', mode: 0o600, holdsSecret: true, description: 'manifest' },
      ]),
    ).rejects.toThrow(/Nothing was written/);
    expect(await readFile(target, 'utf8')).toBe('old: 1\n');
    expect((await readdir(dir)).sort()).toEqual(['blocker', 'certificates.yml']);
  });
});
