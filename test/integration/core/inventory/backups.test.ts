/**
 * In a shared sticky folder (as /tmp), files another user (nobody, a real process) puts there under the
 * names cloudgate gives its temps and backups are not cloudgate's: root's run neither deletes them as
 * stale temps, nor counts them among its backups (future-dated fakes cannot push the real ones out),
 * nor lets a series of names planted for the very second keep it from writing.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEEP_BACKUPS, writeFilesAtomically } from '../../../../src/core/inventory/atomic-write.js';
import { asNobody, NOBODY, sharedFixture, type SharedFixture } from '../../../helpers/other-user.js';

const NOW = new Date('2026-05-06T07:08:09Z');
const STAMP = '20260506T070809Z';

let fx: SharedFixture;
let target: string;
beforeEach(() => {
  fx = sharedFixture('cloudgate-backups-');
  target = join(fx.shared, 'inv.yml');
  writeFileSync(target, 'v0\n', { mode: 0o600 });
});
afterEach(() => fx.cleanup());

const write = (content: string, now = NOW) =>
  writeFilesAtomically([{ path: target, content, mode: 0o600, holdsSecret: true, description: 'inventory' }], now);

const deadPid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
const owned = (uid: number) =>
  readdirSync(fx.shared)
    .filter((f) => statSync(join(fx.shared, f)).uid === uid)
    .sort();

describe("another user's files under cloudgate's names", () => {
  it('a file that looks like a stale temp of a dead run is not deleted', async () => {
    const planted = `.inv.yml.${deadPid()}.0a1b2c.tmp`;
    asNobody(`echo theirs > ${fx.shared}/${planted}`);
    await write('v1\n');
    expect(readFileSync(join(fx.shared, planted), 'utf8')).toBe('theirs\n');
    expect(owned(NOBODY)).toEqual([planted]);
  });

  it("future-dated fake backups neither count nor push root's real backups out; only root's own are pruned", async () => {
    const fakes = [1, 2, 3, 4, 5].map((n) => `inv.yml.209${n}0101T000000Z.bak`);
    asNobody(fakes.map((f) => `echo fake > ${fx.shared}/${f}`).join(' && '));
    for (let i = 1; i <= KEEP_BACKUPS + 2; i++) await write(`v${i}\n`, new Date(NOW.getTime() + i * 1000));
    const rootBackups = owned(0).filter((f) => f.endsWith('.bak'));
    expect(rootBackups).toHaveLength(KEEP_BACKUPS);
    // The newest KEEP_BACKUPS replaced versions: v2..v6.
    expect(rootBackups.map((f) => readFileSync(join(fx.shared, f), 'utf8'))).toEqual([
      'v2\n',
      'v3\n',
      'v4\n',
      'v5\n',
      'v6\n',
    ]);
    expect(owned(NOBODY)).toEqual(fakes);
  });

  it('every backup name of the second planted (a thousand and one of them) does not keep root from writing', async () => {
    asNobody(
      `cd ${fx.shared} && touch inv.yml.${STAMP}.bak && for n in $(seq 1 1000); do touch inv.yml.${STAMP}-$n.bak; done`,
    );
    const [written] = await write('v1\n');
    expect(readFileSync(target, 'utf8')).toBe('v1\n');
    // The backup it names exists, is root's and holds the previous version.
    expect(written!.backupPath).toMatch(new RegExp(`^${target}\\.${STAMP}-\\d+\\.bak$`));
    expect(statSync(written!.backupPath!).uid).toBe(0);
    expect(readFileSync(written!.backupPath!, 'utf8')).toBe('v0\n');
    expect(owned(NOBODY)).toHaveLength(1001);
  });
});
