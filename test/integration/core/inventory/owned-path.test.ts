/**
 * The ownership rule of every write, read and run, as root against a real second user (nobody, through
 * setpriv): a folder, a link or a file of theirs on the path is refused, naming it, its owner and the
 * fix; a folder others may write in passes only when it is root's and sticky, and then only root's own
 * entries in it are used; CLOUDGATE_TRUSTED_FOLDERS accepts a folder the operator names.
 */
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFilesAtomically, type FileToWrite } from '../../../../src/core/inventory/atomic-write.js';
import { checkPath, LinkRefused, PathRefused, TRUSTED_FOLDERS_ENV } from '../../../../src/core/inventory/owned-path.js';
import { readOwnedFileSync } from '../../../../src/core/safe-read.js';
import { UsageError } from '../../../../src/core/errors.js';
import { asNobody, NOBODY, sharedFixture, type SharedFixture } from '../../../helpers/other-user.js';

const file = (path: string, content = 'secret: s3cr3t\n'): FileToWrite => ({
  path,
  content,
  mode: 0o600,
  holdsSecret: true,
  description: 'inventory',
});

let fx: SharedFixture;
beforeEach(() => {
  fx = sharedFixture();
});
afterEach(() => {
  delete process.env[TRUSTED_FOLDERS_ENV];
  fx.cleanup();
});

async function refusal(files: FileToWrite[]): Promise<Error & { advice?: string }> {
  const error = await writeFilesAtomically(files, new Date()).catch((e: Error) => e);
  expect(error).toBeInstanceOf(Error);
  return error as Error & { advice?: string };
}

describe('writing where another user could reach the file', () => {
  it('refuses a folder another user made in a sticky folder, naming it and its owner; nothing is written', async () => {
    asNobody(`mkdir ${fx.shared}/site && chmod 755 ${fx.shared}/site`);
    const error = await refusal([file(join(fx.shared, 'site', 'certs.yml'))]);
    expect(error.message).toContain(`the folder ${fx.shared}/site belongs to uid ${NOBODY} (nobody)`);
    expect(error.message).toContain(`lies in ${fx.shared} (mode 1777)`);
    expect(error.advice).toMatch(/folder of your own/);
    expect(readdirSync(join(fx.shared, 'site'))).toEqual([]);
  });

  it('never writes into an empty file another user pre-created at the inventory path, nor leaves them a file', async () => {
    asNobody(`touch ${fx.shared}/certs.yml`);
    const error = await refusal([file(join(fx.shared, 'certs.yml'))]);
    expect(error.message).toContain(`the file ${fx.shared}/certs.yml belongs to uid ${NOBODY} (nobody)`);
    expect(statSync(join(fx.shared, 'certs.yml')).size).toBe(0);
    expect(readdirSync(fx.shared)).toEqual(['certs.yml']);
  });

  it('refuses a folder of another user outside any shared folder, and a folder of root others may write in', async () => {
    const theirs = join(fx.dir, 'theirs');
    mkdirSync(theirs);
    chownSync(theirs, NOBODY, NOBODY);
    expect((await refusal([file(join(theirs, 'certs.yml'))])).message).toMatch(
      /belongs to uid 65534 \(nobody\), neither to you \(uid 0 \(root\)\) nor to root/,
    );

    const open = join(fx.dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const error = await refusal([file(join(open, 'certs.yml'))]);
    expect(error.message).toContain(
      `can write in the folder ${open} (mode 0777), and it is not a sticky folder of root's`,
    );
    expect(error.advice).toContain(`chmod go-w ${open}`);
    expect(readdirSync(open)).toEqual([]);
  });

  it("refuses a group-writable folder whose group holds another user, accepts one whose group is only its owner's", async () => {
    const team = join(fx.dir, 'team');
    mkdirSync(team);
    chownSync(team, 0, NOBODY); // group nogroup: nobody's own group
    chmodSync(team, 0o775);
    expect((await refusal([file(join(team, 'certs.yml'))])).message).toContain(
      `can write in the folder ${team} (mode 0775)`,
    );

    const own = join(fx.dir, 'own');
    mkdirSync(own);
    chownSync(own, 0, 0);
    chmodSync(own, 0o775);
    await writeFilesAtomically([file(join(own, 'certs.yml'))], new Date());
    expect(readFileSync(join(own, 'certs.yml'), 'utf8')).toBe('secret: s3cr3t\n');
  });

  it("in a sticky folder of root: a new file, and a folder of root's own making, are fine", async () => {
    await writeFilesAtomically(
      [file(join(fx.shared, 'certs.yml')), file(join(fx.shared, 'made', 'deeper', 'm.yaml'))],
      new Date(),
    );
    expect(statSync(join(fx.shared, 'certs.yml')).uid).toBe(0);
    expect(statSync(join(fx.shared, 'made')).uid).toBe(0);
    expect(statSync(join(fx.shared, 'made')).mode & 0o777).toBe(0o755);
  });

  it("refuses a link another user planted, also one their folder's owner would be allowed by the kernel", async () => {
    const victim = join(fx.dir, 'root-only');
    writeFileSync(victim, 'root: only\n', { mode: 0o600 });
    asNobody(`ln -s ${victim} ${fx.shared}/certs.yml`);
    const error = await refusal([file(join(fx.shared, 'certs.yml'))]);
    expect(error.message).toContain(
      `Refused to write through the link ${fx.shared}/certs.yml (owned by uid ${NOBODY} (nobody))`,
    );

    // The prometheus case: a textfile folder owned by the other user, their link in it.
    const textfile = join(fx.dir, 'textfile');
    mkdirSync(textfile);
    chownSync(textfile, NOBODY, NOBODY);
    asNobody(`ln -s ${victim} ${textfile}/cloudgate.prom`);
    expect((await refusal([file(join(textfile, 'cloudgate.prom'))])).message).toContain(
      `the folder ${textfile} belongs to uid ${NOBODY}`,
    );
    expect(readFileSync(victim, 'utf8')).toBe('root: only\n');
    expect(statSync(victim).mode & 0o777).toBe(0o600);
  });

  it("follows root's own link in root's folder, and reports it", async () => {
    const real = join(fx.dir, 'real');
    mkdirSync(real);
    symlinkSync(real, join(fx.dir, 'site'));
    const [written] = await writeFilesAtomically([file(join(fx.dir, 'site', 'certs.yml'))], new Date());
    expect(written).toMatchObject({ linkTarget: join(real, 'certs.yml') });
    expect(written!.links).toEqual([{ link: join(fx.dir, 'site'), owner: 0, to: real }]);
  });

  it('accepts a folder named in CLOUDGATE_TRUSTED_FOLDERS, but still never a file of another user in it', async () => {
    const textfile = join(fx.dir, 'textfile');
    mkdirSync(textfile);
    chownSync(textfile, NOBODY, NOBODY);
    process.env[TRUSTED_FOLDERS_ENV] = `/nonexistent:${textfile}`;
    await writeFilesAtomically([file(join(textfile, 'cloudgate.prom'), 'x 1\n')], new Date());
    expect(statSync(join(textfile, 'cloudgate.prom')).uid).toBe(0);

    asNobody(`touch ${textfile}/theirs.prom`);
    expect((await refusal([file(join(textfile, 'theirs.prom'))])).message).toContain('belongs to uid 65534');
  });
});

describe('reading a secret where another user could change it', () => {
  it("refuses their file, a file others may change, and a file in their folder; reads root's own", () => {
    asNobody(`echo 'client_secret: planted' > ${fx.shared}/answers.yml`);
    expect(() => readOwnedFileSync(join(fx.shared, 'answers.yml'), { what: 'the answers file' })).toThrow(UsageError);
    expect(() => readOwnedFileSync(join(fx.shared, 'answers.yml'), { what: 'the answers file' })).toThrow(
      /belongs to uid 65534/,
    );

    const mine = join(fx.dir, 'mine.yml');
    writeFileSync(mine, 'a: 1\n');
    chmodSync(mine, 0o666);
    expect(() => readOwnedFileSync(mine, { what: 'the config file' })).toThrow(
      /others than its owner can change .*mode 0666/,
    );
    chmodSync(mine, 0o644);
    expect(readOwnedFileSync(mine, { what: 'the config file' })).toBe('a: 1\n');

    const theirs = join(fx.dir, 'theirs');
    mkdirSync(theirs);
    writeFileSync(join(theirs, 'key'), 'k\n');
    chownSync(theirs, NOBODY, NOBODY);
    expect(() => readOwnedFileSync(join(theirs, 'key'), { what: 'the key file' })).toThrow(
      /the folder .*theirs belongs to uid 65534/,
    );
  });

  it("refuses to run another user's script, and their link to root's script", () => {
    const script = join(fx.shared, 'pass.sh');
    asNobody(`printf '#!/bin/sh\\necho pw\\n' > ${script} && chmod 755 ${script}`);
    expect(() => checkPath(script, { purpose: 'run' })).toThrow(PathRefused);
    const rootScript = join(fx.dir, 'root.sh');
    writeFileSync(rootScript, '#!/bin/sh\necho pw\n', { mode: 0o755 });
    asNobody(`ln -s ${rootScript} ${fx.shared}/link.sh`);
    expect(() => checkPath(join(fx.shared, 'link.sh'), { purpose: 'run' })).toThrow(LinkRefused);
    const checked = checkPath(rootScript, { purpose: 'run' });
    checked.folder.close();
    expect(checked.path).toBe(rootScript);
  });

  it('a missing file is no refusal: the reader says it does not exist', () => {
    expect(existsSync(join(fx.dir, 'none'))).toBe(false);
    expect(() => readOwnedFileSync(join(fx.dir, 'none', 'x'), { what: 'the answers file' })).toThrow(/ENOENT/);
    expect(lstatSync(fx.dir).isDirectory()).toBe(true);
  });
});
