#!/usr/bin/env node
// A CommonJS script (bin/package.json says so), because Node starts one without loading its ES module
// loader: `cloudgate --version` answers in about 1.1x the time of `node -e 0` instead of 1.5x. Every
// other command runs the bundled ES modules in dist/, which print the same version for `--version`.
'use strict';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // A reader that went away (`| true`) is no error: no stack trace (src/cli.ts does the same for the rest).
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
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
