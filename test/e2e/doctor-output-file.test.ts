/**
 * `doctor --format prometheus --output FILE`, as cron runs it as root into a node exporter's textfile
 * folder: a link another user planted there is never written through (the root-only file it points to
 * is untouched, exit 1 naming the link and its owner); root's own link is, and the report says so; a
 * missing folder is not created (exit 2 naming it). Run `npm run build` first; runs as root.
 */
import {
  chmodSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

let dir: string;
let textfile: string;
let inventory: string;
beforeAll(() => {
  expect(process.getuid!()).toBe(0);
  dir = mkdtempSync(join(tmpdir(), 'cg-doctor-output-'));
  textfile = join(dir, 'textfile');
  mkdirSync(textfile);
  chmodSync(textfile, 0o1777);
  inventory = join(dir, 'certs.yml');
  writeFileSync(inventory, 'cluster_issuer_type: self-signed\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const doctor = (output: string) =>
  runCli(['doctor', '--only', 'inventory', '--inventory', inventory, '--format', 'prometheus', '--output', output]);

describe('doctor --output', () => {
  it('refuses a link planted by another user in the sticky textfile folder: exit 1, the root-only file untouched', async () => {
    const shadow = join(dir, 'shadow');
    writeFileSync(shadow, 'root:$6$secret:19000:0:99999:7:::\n', { mode: 0o600 });
    const link = join(textfile, 'evil.prom');
    symlinkSync(shadow, link);
    lchownSync(link, 65534, 65534);

    const r = await doctor(link);

    expect(r.code).toBe(1);
    expect(r.stderr).toContain(link);
    expect(r.stderr).toContain('uid 65534');
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(readFileSync(shadow, 'utf8')).toBe('root:$6$secret:19000:0:99999:7:::\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("writes through root's own link and says so", async () => {
    const real = join(dir, 'real.prom');
    const link = join(textfile, 'cloudgate.prom');
    symlinkSync(real, link);
    const r = await doctor(link);
    expect(r.code).toBe(0);
    expect(readFileSync(real, 'utf8')).toContain('cloudgate_check_status');
    expect(r.stderr).toContain(`through the link ${link} owned by uid 0`);
  });

  it('does not create a missing folder: exit 2 naming it, before any check runs', async () => {
    const missing = join(dir, 'no-such-folder');
    const r = await doctor(join(missing, 'cloudgate.prom'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the folder ${missing} does not exist`);
    expect(existsSync(missing)).toBe(false);
  });
});
