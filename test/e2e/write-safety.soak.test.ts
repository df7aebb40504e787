/**
 * Runs of setup killed at random points, a few hundred of them: the inventory is always the old or the
 * new content, and the next run leaves no temp or lock behind. A soak test: it runs only in a
 * nightly-sized run (CLOUDGATE_SOAK=1, vitest.config.ts), as it takes minutes.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';

const FIXTURES = new URL('../fixtures/inventory/', import.meta.url).pathname;

let dir: string;
let inventory: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-e2e-kill-'));
  inventory = join(dir, 'certificates.yml');
  await copyFile(join(FIXTURES, 'realistic.yml'), inventory);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function answers(name: string, text: string): Promise<string> {
  await writeFile(join(dir, name), text);
  return join(dir, name);
}

const setup = (answersFile: string) =>
  runCli(['setup', '--answers', answersFile, '--inventory', inventory, '--yes'], { cwd: dir });

/** Files cloudgate may leave beside the inventory only while it runs. */
const leftovers = async (folder = dir) =>
  (await readdir(folder)).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'));

describe('runs killed at random points', () => {
  const RUNS = Number(process.env.CLOUDGATE_KILL_RUNS ?? 200);
  const BUDGET_MS = 150_000;

  it(`the inventory is always the old or the new content, and the next run leaves no temp (${RUNS} runs)`, async () => {
    const emails = ['kill-a@example.com', 'kill-b@example.com'];
    const files = [
      await answers('a.yml', `cluster_issuer_acme_email: ${emails[0]}\n`),
      await answers('b.yml', `cluster_issuer_acme_email: ${emails[1]}\n`),
    ];
    const original = await readFile(inventory, 'utf8');
    const started = Date.now();
    expect((await setup(files[0]!)).code).toBe(0);
    let duration = Date.now() - started; // of a whole run; follows the machine's load
    const contentA = await readFile(inventory, 'utf8');
    expect((await setup(files[1]!)).code).toBe(0);
    const contentB = await readFile(inventory, 'utf8');
    const allowed = new Set([original, contentA, contentB]);
    expect(allowed.size).toBe(3);

    let runs = 0;
    let killed = 0;
    let leftBehind = 0;
    while (runs < RUNS && Date.now() - started < BUDGET_MS) {
      // Always a real change: the answers the inventory does not hold yet.
      const current = await readFile(inventory, 'utf8');
      const file = current === contentA ? files[1]! : files[0]!;
      const child = spawn(process.execPath, [BIN, 'setup', '--answers', file, '--inventory', inventory, '--yes'], {
        cwd: dir,
        env: { ...process.env, CI: 'true' },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const delay = duration * (0.5 + Math.random() * 0.6); // late: where the writing happens
      const runStart = Date.now();
      const timer = setTimeout(() => child.kill(runs % 2 ? 'SIGINT' : 'SIGKILL'), delay);
      const code = await exited;
      clearTimeout(timer);
      runs++;
      const text = await readFile(inventory, 'utf8');
      expect(allowed.has(text), `run ${runs}: partial inventory (${text.length} bytes)`).toBe(true);
      if (code === 0) {
        duration = 0.7 * duration + 0.3 * (Date.now() - runStart);
        expect(await leftovers(), `run ${runs} exited 0`).toEqual([]);
      } else {
        killed++;
        if ((await leftovers()).length) leftBehind++;
      }
    }
    // The next complete run leaves nothing behind a killed one.
    const current = await readFile(inventory, 'utf8');
    const last = await setup(current === contentA ? files[1]! : files[0]!);
    expect(last.code, last.stderr).toBe(0);
    expect(await leftovers()).toEqual([]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.bak')).length).toBeLessThanOrEqual(5);
    expect(runs).toBeGreaterThanOrEqual(Math.min(RUNS, 50));
    expect(killed).toBeGreaterThan(0);
    console.log(`kill loop: ${runs} runs, ${killed} killed, ${leftBehind} left a temp or lock for the next run`);
  }, 300_000);
});
