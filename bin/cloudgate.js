#!/usr/bin/env node
// A CommonJS script (bin/package.json says so), because Node starts one without loading its ES module
// loader: `cloudgate --version` answers in about 1.1x the time of `node -e 0` instead of 1.5x. Every
// other command runs the bundled ES modules in dist/, which print the same version for `--version`.
// It is also the entry of the single executable (scripts/build-exe.mjs), which bundles dist/cli.js's sources.
'use strict';

/**
 * Node 22 and later keep V8's compiled code of the modules a run loads for the next run
 * (module.enableCompileCache): `doctor --only inventory` about 8 ms faster on Node 26. Compiled code is
 * code, so the cache is the user's own folder (cloudgate/compile under $XDG_CACHE_HOME or ~/.cache),
 * used only while no one else could change it: the folder is this user's and every folder above it is
 * this user's or root's and writable by no one else (or sticky, as /tmp), the rule OpenSSH applies to
 * the paths of keys. Never a shared temporary folder, nor another user's home under sudo.
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off. The single executable carries its own code cache.
 */
function useCompileCache() {
  const { enableCompileCache } = require('node:module');
  if (typeof enableCompileCache !== 'function' || require('node:sea').isSea()) return;
  const { dirname, isAbsolute, join } = require('node:path');
  const fs = require('node:fs');
  try {
    const base = isAbsolute(process.env.XDG_CACHE_HOME || '') ? process.env.XDG_CACHE_HOME : join(require('node:os').homedir(), '.cache');
    const dir = join(base, 'cloudgate', 'compile');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.geteuid();
    const real = fs.realpathSync(dir);
    for (let at = real; ; at = dirname(at)) {
      const folder = fs.lstatSync(at);
      const leaf = at === real;
      const owner = folder.uid === uid || (!leaf && folder.uid === 0);
      const closed = (folder.mode & 0o022) === 0 || (!leaf && (folder.mode & 0o1000) !== 0);
      if (!folder.isDirectory() || !owner || !closed) return;
      if (at === dirname(at)) break;
    }
    enableCompileCache(dir);
  } catch {
    // No home, or a read-only one: the run compiles everything, as on Node 20.
  }
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // A reader that went away (`| true`) is no error: no stack trace (src/cli.ts does the same for the rest).
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  useCompileCache();
  import('../dist/cli.js').then(
    ({ main }) => main(args).then((code) => {
      process.exitCode = code;
      // What a run gave up on at its deadline and cannot cancel (a DNS lookup in the system resolver's
      // own retries) would keep Node running after the report: the process ends a second after the run.
      setTimeout(() => process.exit(code), 1000).unref();
    }),
    (error) => {
      // A checkout that was never built: say how to build it, not a module-loader stack trace.
      if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
        process.stderr.write('cloudgate is not built: run "npm ci && npm run build" in its folder.\n');
        process.exitCode = 2;
      } else {
        throw error;
      }
    },
  );
}
