/**
 * `npm run setup` works where the operator ran npm (npm's INIT_CWD), as `cloudgate setup` run there
 * would: relative paths are theirs, and the default inventory is written there, never into the
 * checkout. From the checkout itself it still starts the walkthrough (README's first command).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function npmRunSetup(cwd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    // A PATH with node and npm and no cloudgate on it, as after README's first command.
    const path = [...new Set([dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'])].join(':');
    const child = spawn('npm', ['--prefix', ROOT, 'run', 'setup', '--', ...args], {
      cwd,
      env: { ...process.env, PATH: path, CI: 'true', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('npm run setup', () => {
  it('writes into the directory npm was run from, with paths relative to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudgate-npm-setup-'));
    writeFileSync(join(dir, 'answers.yml'), 'cluster_issuer_type: self-signed\n');
    const { code, output } = await npmRunSetup(dir, ['--answers', 'answers.yml']);
    expect(code, output).toBe(0);
    expect(existsSync(join(dir, 'inventory', 'group_vars', 'all', 'certificates.yml'))).toBe(true);
    expect(existsSync(join(ROOT, 'inventory'))).toBe(false);
    // cloudgate is on no PATH after README's `npm ci && npm run setup`: each next step names it by its path and runs as printed.
    const lines = output.split('\n');
    const next = lines
      .slice(lines.indexOf('Next:') + 1)
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim())
      .filter((l) => !l.startsWith('#'));
    expect(next.length).toBeGreaterThan(0);
    for (const line of next) {
      expect(line.startsWith(`${join(ROOT, 'bin', 'cloudgate.js')} `), line).toBe(true);
      const ran = spawnSync('sh', ['-c', line.replace(/\s+#\s.*$/, '')], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          HOME: dir,
          PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
          CI: 'true',
          NO_COLOR: '1',
          KUBECONFIG: join(dir, 'none'),
        },
      });
      expect([0, 1], `${line}\n${ran.stdout}${ran.stderr}`).toContain(ran.status);
    }
  }, 150_000);
});
