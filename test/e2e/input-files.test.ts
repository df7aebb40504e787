/**
 * Files the user names (`file:` answers, --certificate, --inventory and what an inventory folder
 * holds): only regular files of at most 1 MiB, never a hang on a pipe, never their content in output.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const SECRET = 'env-secret-value-31337';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudgate-e2e-input-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function setupWith(answers: string, extra: string[] = []) {
  await writeFile(join(dir, 'answers.yml'), answers);
  return runCli(['setup', '--answers', 'answers.yml', '--inventory', 'certificates.yml', ...extra], {
    cwd: dir,
    env: { CLOUDGATE_TEST_SECRET: SECRET },
    timeoutMs: 15_000,
  });
}

describe('file: answers', () => {
  it('file:/proc/self/environ exits 2 naming the file, never printing the environment', async () => {
    for (const extra of [[], ['--dry-run']]) {
      const r = await setupWith(
        'cluster_issuer_type: acme\ncluster_issuer_acme_email: file:/proc/self/environ\n',
        extra,
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('/proc/self/environ');
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout + r.stderr).not.toContain('CLOUDGATE_TEST_SECRET');
    }
  });

  it('file:/dev/zero and a FIFO are refused at once with exit 2', async () => {
    execFileSync('mkfifo', [join(dir, 'email.fifo')]);
    // A read that waited for /dev/zero's end or the FIFO's writer would never end: no clock is needed to see it.
    for (const path of ['/dev/zero', 'email.fifo']) {
      const r = await setupWith(`cluster_issuer_type: acme\ncluster_issuer_acme_email: file:${path}\n`);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is not a regular file \(a (device|pipe)\)/);
    }
    await expect(readFile(join(dir, 'certificates.yml'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('doctor inputs that are not regular files', () => {
  it('--certificate FIFO exits 2 naming the path', async () => {
    execFileSync('mkfifo', [join(dir, 'cert.pem')]);
    const r = await runCli(
      ['doctor', '--only', 'certificate', '--certificate', 'cert.pem', '--inventory', 'none.yml'],
      { cwd: dir, timeoutMs: 15_000 },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(dir, 'cert.pem'));
  });

  it('--inventory FIFO, or a FIFO inside the inventory folder, exits 2 naming the path', async () => {
    execFileSync('mkfifo', [join(dir, 'inv.yml')]);
    const file = await runCli(['doctor', '--only', 'inventory', '--inventory', 'inv.yml'], {
      cwd: dir,
      timeoutMs: 15_000,
    });
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(join(dir, 'inv.yml'));
    await mkdir(join(dir, 'site/group_vars/all'), { recursive: true });
    execFileSync('mkfifo', [join(dir, 'site/group_vars/all/certs.yml')]);
    const folder = await runCli(['doctor', '--only', 'inventory', '--inventory', 'site'], {
      cwd: dir,
      timeoutMs: 15_000,
    });
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain(join(dir, 'site/group_vars/all/certs.yml'));
  });
});

describe('--config that is not a regular file', () => {
  it('a FIFO or /dev/zero as --config exits 2 at once naming the path (doctor and token)', async () => {
    execFileSync('mkfifo', [join(dir, 'doctor.yml')]);
    for (const [args, path] of [
      [['doctor', '--only', 'signin', '--config', 'doctor.yml'], join(dir, 'doctor.yml')],
      [['token', '--config', 'doctor.yml'], join(dir, 'doctor.yml')],
      [['doctor', '--only', 'signin', '--config', '/dev/zero'], '/dev/zero'],
    ] as const) {
      const started = Date.now();
      const r = await runCli([...args], { cwd: dir, timeoutMs: 15_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(path);
      expect(r.stderr).toMatch(/not a regular file/);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });
});

describe('setup and regenerate --inventory that is not a regular file', () => {
  it('a FIFO, /dev/zero or a folder is refused at once with exit 2 naming the path', async () => {
    execFileSync('mkfifo', [join(dir, 'inv.fifo')]);
    await mkdir(join(dir, 'site'));
    await writeFile(join(dir, 'answers.yml'), 'cluster_issuer_acme_email: q@example.com\n');
    for (const command of ['setup', 'regenerate']) {
      for (const [path, kind] of [
        ['inv.fifo', 'a pipe'],
        ['/dev/zero', 'a device'],
        ['site', 'a folder'],
      ]) {
        const started = Date.now();
        const r = await runCli([command, '--answers', 'answers.yml', '--inventory', path, '--dry-run'], {
          cwd: dir,
          timeoutMs: 15_000,
        });
        expect(r.code, `${command} --inventory ${path}`).toBe(2);
        expect(r.stderr).toContain(`${path.startsWith('/') ? path : join(dir, path)} is not a regular file (${kind})`);
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    }
    expect((await readdir(join(dir, 'site'))).length).toBe(0);
  });
});

describe('doctor reads inventory folders through symbolic links', () => {
  it('checks a linked vars file and names the file the bad value came from', async () => {
    await mkdir(join(dir, 'shared'));
    await writeFile(
      join(dir, 'shared/certs.yml'),
      'cluster_issuer_type: acme\ncluster_issuer_acme_solver: http01\ncluster_issuer_acme_email: not-an-email\n',
    );
    await mkdir(join(dir, 'site/group_vars/all'), { recursive: true });
    await writeFile(join(dir, 'site/group_vars/all/network.yml'), 'ntp_server: pool.ntp.org\n');
    await symlink('../../../shared/certs.yml', join(dir, 'site/group_vars/all/certs.yml'));
    const r = await runCli(['doctor', '--only', 'inventory', '--inventory', 'site', '--json'], {
      cwd: dir,
      timeoutMs: 15_000,
    });
    expect(r.code).toBe(1);
    const checks = JSON.parse(r.stdout).checks as {
      id: string;
      status: string;
      message: string;
      details?: { file?: string };
    }[];
    const email = checks.find((c) => c.details?.file?.endsWith('certs.yml'));
    expect(email?.status).toBe('fail');
    expect(email?.details?.file).toBe(join(dir, 'site/group_vars/all/certs.yml'));
    expect(email?.message).toContain('group_vars/all/certs.yml');
  });

  it('reads a symlinked group_vars/all folder and survives a link loop', async () => {
    await mkdir(join(dir, 'shared/all'), { recursive: true });
    await writeFile(
      join(dir, 'shared/all/certs.yml'),
      'cluster_issuer_type: none\nopenstack_helm_ingress_wildcard_domain: cloud.example.com\n',
    );
    await symlink('..', join(dir, 'shared/all/loop'));
    await mkdir(join(dir, 'site/group_vars'), { recursive: true });
    await symlink('../../shared/all', join(dir, 'site/group_vars/all'));
    const r = await runCli(['doctor', '--only', 'inventory', '--inventory', 'site', '--json'], {
      cwd: dir,
      timeoutMs: 15_000,
    });
    const checks = JSON.parse(r.stdout).checks as { id: string; status: string }[];
    expect(checks.map((c) => c.id)).not.toContain('inventory.file');
    expect(checks.find((c) => c.id === 'inventory.link-loop')?.status).toBe('warn');
  });
});

describe('setup --dry-run and the other vars files of the group', () => {
  it('masks secret-looking unrelated keys in the diff and warns about a later file overriding a key', async () => {
    const group = join(dir, 'group_vars/all');
    await mkdir(group, { recursive: true });
    await writeFile(join(group, 'certificates.yml'), 'db_password: hunter2-unrelated\ncluster_issuer_type: none\n');
    await writeFile(join(group, 'zz-local.yml'), 'cluster_issuer_type: ca\n');
    await writeFile(
      join(dir, 'answers.yml'),
      'cluster_issuer_type: acme\ncluster_issuer_acme_solver: http01\ncluster_issuer_acme_email: ops@example.com\n',
    );
    const r = await runCli(
      ['setup', '--answers', 'answers.yml', '--inventory', join(group, 'certificates.yml'), '--dry-run'],
      { cwd: dir, timeoutMs: 15_000 },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(' db_password: ********');
    expect(r.stdout + r.stderr).not.toContain('hunter2-unrelated');
    expect(r.stderr).toMatch(/cluster_issuer_type is also set in .*zz-local\.yml/);
  });
});
