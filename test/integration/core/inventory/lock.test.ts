import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../../src/core/errors.js';
import {
  assertInventoryUnchanged,
  inventoryFingerprint,
  lockInventory,
  lockPathOf,
  withInventoryLock,
} from '../../../../src/core/inventory/lock.js';

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-lock-'));
  inventory = join(dir, 'certs.yml');
  await writeFile(inventory, 'a: 1\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const deadPid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

describe('lockInventory', () => {
  it('holds a lock file beside the inventory with its pid, and removes it on release', async () => {
    const lock = await lockInventory(inventory);
    expect(lock.path).toBe(`${inventory}.lock`);
    expect(await readFile(lock.path, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    expect(await readdir(dir)).toEqual(['certs.yml']);
  });

  it('refuses while a live process holds it: exit 2, naming the pid and the inventory', async () => {
    const holder = spawn('sleep', ['30']);
    try {
      await writeFile(lockPathOf(inventory), `${holder.pid}\n`);
      const error = await lockInventory(inventory).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toContain(`another cloudgate run (pid ${holder.pid}) holds ${inventory}`);
      expect(await readFile(lockPathOf(inventory), 'utf8')).toBe(`${holder.pid}\n`);
    } finally {
      holder.kill();
    }
  });

  it('a second lock in the same process is refused too', async () => {
    const first = await lockInventory(inventory);
    await expect(lockInventory(inventory)).rejects.toThrow(`(pid ${process.pid})`);
    await first.release();
  });

  it("takes over the lock of a dead process, and removes that process's temps", async () => {
    const dead = deadPid();
    await writeFile(lockPathOf(inventory), `${dead}\n`);
    await writeFile(join(dir, `.certs.yml.${dead}.00ff.tmp`), 'secret: left by a killed run\n');
    const lock = await lockInventory(inventory);
    expect(await readFile(lock.path, 'utf8')).toBe(`${process.pid}\n`);
    await lock.release();
    expect(await readdir(dir)).toEqual(['certs.yml']);
  });

  it('refuses a lock file that names no process, saying to remove it', async () => {
    await writeFile(lockPathOf(inventory), 'garbage');
    await expect(lockInventory(inventory)).rejects.toThrow(/names no process/);
  });

  it('a linked inventory is locked beside the file it points to', async () => {
    await mkdir(join(dir, 'site'));
    const link = join(dir, 'site', 'certs.yml');
    await symlink('../certs.yml', link);
    const lock = await lockInventory(link);
    expect(lock.path).toBe(`${inventory}.lock`);
    await expect(lockInventory(inventory)).rejects.toThrow(/another cloudgate run/);
    await lock.release();
  });

  it('a folder made for the lock of a new inventory is removed again when nothing was written', async () => {
    await withInventoryLock(join(dir, 'new', 'group_vars', 'certs.yml'), async () => undefined);
    expect(await readdir(dir)).toEqual(['certs.yml']);
  });
});

describe('assertInventoryUnchanged', () => {
  it('passes for the same bytes and refuses (exit 2) after a change, a removal or a creation', async () => {
    const before = await inventoryFingerprint(inventory);
    await assertInventoryUnchanged(inventory, before);
    await writeFile(inventory, 'a: 2\n');
    await expect(assertInventoryUnchanged(inventory, before)).rejects.toThrow(/changed since cloudgate read it/);
    const absent = await inventoryFingerprint(join(dir, 'none.yml'));
    expect(absent).toBe('absent');
    await writeFile(join(dir, 'none.yml'), '');
    await expect(assertInventoryUnchanged(join(dir, 'none.yml'), absent)).rejects.toBeInstanceOf(UsageError);
  });
});
