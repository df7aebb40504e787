/**
 * What cloudgate guarantees about the files it writes, checked on the built binary: concurrent runs
 * (a lock, no lost update), a failed write, a linked inventory, a planted backup link. The loop of runs
 * killed at random points is write-safety.soak.test.ts (a nightly-sized run: CLOUDGATE_SOAK=1).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { launchCloudgate, type Terminal } from '../helpers/tmux.js';

const FIXTURES = new URL('../fixtures/inventory/', import.meta.url).pathname;

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-e2e-write-'));
  inventory = join(dir, 'certificates.yml');
  await copyFile(join(FIXTURES, 'realistic.yml'), inventory);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function answers(name: string, text: string): Promise<string> {
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

const setup = (answersFile: string, extra: string[] = []) =>
  runCli(['setup', '--answers', answersFile, '--inventory', inventory, '--yes', ...extra], { cwd: dir });

/** Files cloudgate may leave beside the inventory only while it runs. */
const leftovers = async (folder = dir) =>
  (await readdir(folder)).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'));

describe('concurrent runs', () => {
  let terms: Terminal[] = [];
  afterEach(() => {
    for (const term of terms) term.kill();
    terms = [];
  });

  it('two runs that both read the inventory before either writes: one writes, the other exits 2 and writes nothing', async () => {
    const email = await answers('email.yml', 'cluster_issuer_acme_email: race-a@example.com\n');
    const nameserver = await answers('ns.yml', 'cluster_issuer_acme_rfc2136_nameserver: ns-race-b.example.com:53\n');
    const original = await readFile(inventory, 'utf8');
    // On a terminal, setup asks before it writes: a barrier between reading the inventory and writing it.
    terms = [email, nameserver].map((file) =>
      launchCloudgate(['setup', '--answers', file, '--inventory', inventory], { cwd: dir, size: { x: 120, y: 50 } }),
    );
    for (const term of terms) await term.waitFor('Write these files? [y/N]');
    // Both have planned from the same content and neither has written: the runs overlap.
    expect(await readFile(inventory, 'utf8')).toBe(original);
    expect((await readdir(dir)).filter((f) => f.endsWith('.lock'))).toEqual([]);
    for (const term of terms) term.send('y', 'Enter');
    const screens = await Promise.all(terms.map((term) => term.waitFor(/EXIT=\d+/)));
    const codes = screens.map((screen) => Number(/EXIT=(\d+)/.exec(screen)![1]));
    expect([...codes].sort(), screens.join('\n')).toEqual([0, 2]);
    const loser = screens[codes.indexOf(2)]!;
    expect(loser.replace(/\s*\n\s*/g, ' ')).toMatch(
      /another cloudgate run \(pid \d+\) holds|changed since cloudgate read it/,
    );
    const text = await readFile(inventory, 'utf8');
    expect(text.includes('race-a@example.com')).toBe(codes[0] === 0);
    expect(text.includes('ns-race-b.example.com:53')).toBe(codes[1] === 0);
    expect(await leftovers()).toEqual([]);
  }, 60_000);

  it('two setup --yes runs started together never lose an update, however they interleave', async () => {
    const email = await answers('email.yml', 'cluster_issuer_acme_email: race-a@example.com\n');
    const nameserver = await answers('ns.yml', 'cluster_issuer_acme_rfc2136_nameserver: ns-race-b.example.com:53\n');
    const original = await readFile(join(FIXTURES, 'realistic.yml'), 'utf8');
    const outcomes: string[] = [];
    for (let race = 0; race < 12; race++) {
      await writeFile(inventory, original);
      const [a, b] = await Promise.all([setup(email), setup(nameserver)]);
      const text = await readFile(inventory, 'utf8');
      const hasA = text.includes('race-a@example.com');
      const hasB = text.includes('ns-race-b.example.com:53');
      expect([a.code, b.code].sort(), a.stderr + b.stderr).not.toEqual([2, 2]);
      for (const r of [a, b]) {
        expect([0, 2]).toContain(r.code);
        if (r.code === 2)
          expect(r.stderr).toMatch(/another cloudgate run \(pid \d+\) holds|changed since cloudgate read it/);
      }
      // Whatever exited 0 is in the file; whatever exited 2 is not.
      expect(hasA).toBe(a.code === 0);
      expect(hasB).toBe(b.code === 0);
      expect(await leftovers()).toEqual([]);
      outcomes.push(`${a.code}${b.code}`);
    }
    expect(outcomes.length).toBe(12);
    console.log(`races (exit codes of the two runs): ${outcomes.join(' ')}`);
  }, 120_000);

  it('a run while another process holds the lock exits 2, names that pid and writes nothing', async () => {
    const holder = spawn('sleep', ['30']);
    try {
      await writeFile(`${inventory}.lock`, `${holder.pid}\n`);
      const before = await readFile(inventory, 'utf8');
      const r = await setup(await answers('a.yml', 'cluster_issuer_acme_email: a@example.com\n'));
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`another cloudgate run (pid ${holder.pid}) holds ${inventory}`);
      expect(await readFile(inventory, 'utf8')).toBe(before);
      expect((await readdir(dir)).filter((f) => f.endsWith('.bak'))).toEqual([]);
    } finally {
      holder.kill();
    }
  });

  it('the lock of a killed run is taken over', async () => {
    const dead = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
    await writeFile(`${inventory}.lock`, `${dead}\n`);
    const r = await setup(await answers('a.yml', 'cluster_issuer_acme_email: a@example.com\n'));
    expect(r.code, r.stderr).toBe(0);
    expect(await readFile(inventory, 'utf8')).toContain('a@example.com');
    expect(await leftovers()).toEqual([]);
  });
});

describe('failed writes, links, backups', () => {
  it('a write that fails (file size limit) exits 1 and leaves no temp file, the inventory untouched', async () => {
    await writeFile(inventory, `${await readFile(inventory, 'utf8')}# ${'x'.repeat(8000)}\n`);
    const before = await readFile(inventory, 'utf8');
    const file = await answers('a.yml', 'cluster_issuer_acme_email: a@example.com\n');
    const r = spawnSync(
      'sh',
      [
        '-c',
        'ulimit -f 4; exec "$@"',
        'sh',
        process.execPath,
        BIN,
        'setup',
        '--answers',
        file,
        '--inventory',
        inventory,
        '--yes',
      ],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
    );
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain('Nothing was written');
    expect(await readFile(inventory, 'utf8')).toBe(before);
    expect((await readdir(dir)).sort()).toEqual(['a.yml', 'certificates.yml']);
  });

  it('a linked inventory is written through to the file it points to, the link kept, and says so', async () => {
    await mkdir(join(dir, 'shared'));
    const real = join(dir, 'shared', 'certs.yml');
    await copyFile(inventory, real);
    await rm(inventory);
    await symlink('shared/certs.yml', inventory);
    const r = await setup(await answers('a.yml', 'cluster_issuer_acme_email: a@example.com\n'));
    expect(r.code, r.stderr).toBe(0);
    expect((await lstat(inventory)).isSymbolicLink()).toBe(true);
    expect(await readlink(inventory)).toBe('shared/certs.yml');
    expect(await readFile(real, 'utf8')).toContain('cluster_issuer_acme_email: a@example.com');
    expect(r.stderr).toContain(`written through the link to ${real}`);
    expect((await readdir(join(dir, 'shared'))).filter((f) => f.endsWith('.bak'))).toHaveLength(1);
  });

  it('a link planted under the coming backup names (1777 folder) is never written through', async () => {
    await chmod(dir, 0o1777);
    const stolen = join(tmpdir(), `cloudgate-stolen-${process.pid}-${Date.now()}`);
    const start = Date.now();
    for (let s = 0; s < 20; s++) {
      const stamp = new Date(start + s * 1000)
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      await symlink(`${stolen}-${s}`, `${inventory}.${stamp}.bak`);
    }
    const r = await setup(await answers('a.yml', 'cluster_issuer_acme_email: a@example.com\n'));
    expect(r.code, r.stderr).toBe(0);
    const stray = (await readdir(tmpdir())).filter((f) => f.startsWith(`cloudgate-stolen-${process.pid}`));
    expect(stray).toEqual([]);
    const backup = /previous version saved as (\S+)/.exec(r.stderr)![1]!;
    expect((await lstat(backup)).isFile()).toBe(true);
    expect(await readFile(backup, 'utf8')).toContain('tsig_secret_key');
  });

  it('keeps the last 5 backups', async () => {
    for (let i = 0; i < 7; i++) {
      const r = await setup(await answers('a.yml', `cluster_issuer_acme_email: n${i}@example.com\n`));
      expect(r.code, r.stderr).toBe(0);
    }
    expect((await readdir(dir)).filter((f) => f.endsWith('.bak'))).toHaveLength(5);
  }, 60_000);
});
