/**
 * A second user (nobody, a real process through setpriv) races root's writes, swapping a folder of the
 * path for a link to a root-only folder as fast as it can. The write works relative to the folders it
 * checked (their descriptors, through /proc/self/fd), so each write either lands in the real folder or
 * is refused: the root-only folder is never written, in any of the runs. (Working through the folders'
 * paths instead, the same race put the inventory and its temps into the root-only folder in most runs.)
 */
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically } from '../../../../src/core/inventory/atomic-write.js';
import { TRUSTED_FOLDERS_ENV } from '../../../../src/core/inventory/owned-path.js';
import { NOBODY, sharedFixture, startAsNobody, stop, type SharedFixture } from '../../../helpers/other-user.js';

const RUNS = 150;

let fx: SharedFixture;
let victim: string;
beforeEach(() => {
  fx = sharedFixture('cloudgate-race-');
  // A root-only folder that must stay empty: a file created there would be root's inventory where it was never asked for.
  victim = join(fx.dir, 'victim');
  mkdirSync(victim, { mode: 0o700 });
});
afterEach(() => {
  delete process.env[TRUSTED_FOLDERS_ENV];
  fx.cleanup();
});

const write = (path: string, n: number) =>
  writeFilesAtomically(
    [{ path, content: `run: ${n}\n`, mode: 0o600, holdsSecret: true, description: 'inventory' }],
    new Date(),
    { backup: false },
  ).then(
    () => 'written',
    () => 'refused',
  );

function victimUntouched(): void {
  expect(readdirSync(victim)).toEqual([]);
}

describe('a folder of the path swapped for a link while root writes', () => {
  it('in a folder the operator trusts (group-writable): the swap never redirects a write', async () => {
    const team = join(fx.dir, 'team');
    mkdirSync(team);
    chownSync(team, 0, NOBODY);
    chmodSync(team, 0o775);
    process.env[TRUSTED_FOLDERS_ENV] = team;
    mkdirSync(join(team, 'site'));
    // Perl (Debian's perl-base is always installed): the swap every few hundred microseconds, the link in place half of the time.
    const racer = startAsNobody(
      `cd ${team} && exec perl -e 'while (1) { rename "site", "site.x"; symlink "../victim", "site"; select(undef, undef, undef, 0.0003); unlink "site"; rename "site.x", "site"; select(undef, undef, undef, 0.0003) }'`,
    );
    const outcomes: string[] = [];
    try {
      for (let n = 0; n < RUNS; n++) outcomes.push(await write(join(team, 'site', 'certs.yml'), n));
    } finally {
      stop(racer);
    }
    victimUntouched();
    expect(outcomes).toContain('written');
    // What was written is in root's real folder, under whichever name the racer left it.
    const real = readdirSync(team)
      .filter((f) => f.startsWith('site'))
      .map((f) => join(team, f))
      .find((p) => readdirSync(p).includes('certs.yml'));
    expect(readFileSync(join(real!, 'certs.yml'), 'utf8')).toMatch(/^run: \d+\n$/);
  });

  it('in a sticky folder (as /tmp), racing the creation of a new folder: root writes into its own folder or not at all', async () => {
    const site = join(fx.shared, 'site');
    const racer = startAsNobody(
      `cd ${fx.shared} && exec perl -e 'while (1) { symlink "${victim}", "site"; select(undef, undef, undef, 0.0003); unlink "site" }'`,
    );
    const outcomes: string[] = [];
    try {
      for (let n = 0; n < RUNS; n++) {
        outcomes.push(await write(join(site, 'certs.yml'), n));
        // Root's own folder from this run goes again (rm never follows a link), so that the next run creates it anew.
        rmSync(site, { recursive: true, force: true });
      }
    } finally {
      stop(racer);
    }
    victimUntouched();
    expect(outcomes).toContain('written');
  });
});
