// Runs ESLint (type-aware) over src/ and test/. Its packages are a project of their own in tools/lint/ (see its
// package.json for why); they are installed from tools/lint/package-lock.json when missing or stale.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tools = `${root}tools/lint`;
const lock = `${tools}/package-lock.json`;
const installed = `${tools}/node_modules/.package-lock.json`;
const stale = !existsSync(installed) || JSON.parse(readFileSync(installed, 'utf8')).packages?.['node_modules/eslint']?.version
  !== JSON.parse(readFileSync(lock, 'utf8')).packages?.['node_modules/eslint']?.version;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
if (stale) {
  const install = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--prefix', tools], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 300_000 });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
const eslint = spawnSync(process.execPath, [`${tools}/node_modules/eslint/bin/eslint.js`, '--max-warnings', '0', ...process.argv.slice(2), 'src', 'test'], {
  cwd: root, stdio: 'inherit', timeout: 600_000,
});
process.exit(eslint.status ?? 1);
