/**
 * `npm run setup` works where the operator ran npm (npm's INIT_CWD), as `cloudgate setup` run there
 * would: relative paths are theirs, and the default inventory is written there, never into the
 * checkout. From the checkout itself it still starts the walkthrough (README's first command).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function npmRunSetup(cwd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['--prefix', ROOT, 'run', 'setup', '--', ...args], { cwd, env: { ...process.env, CI: 'true', NO_COLOR: '1' } });
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
  }, 150_000);
});
