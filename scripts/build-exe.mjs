// `npm run build:exe`: cloudgate as one executable file, dist/cloudgate-linux-<arch>, with Node's single
// executable application support: the active LTS's own binary (scripts/node-lines.mjs) carrying one ES
// module bundle of cloudgate and V8's code cache of it, so a host needs no Node at all.
//   npm run build:exe [-- --arch x64|arm64] [--out FILE] [--offline] [--no-strip]
// --offline downloads nothing (the tests); --no-strip keeps the debugging symbols of Node's binary.
//
// What a single executable changes, and how the build answers it:
// - it runs one injected module and import() finds only Node's built-ins, so the bundle is one file. Its
//   lazy parts stay lazy: esbuild wraps a module that is only imported dynamically (each command, each
//   doctor group, Ink and React) in a function run on first import;
// - a built-in imported by such a module would still load when the executable starts (esbuild hoists the
//   import statement): each is required where its importer first runs instead (lazyBuiltins, build.mjs);
// - there are no files beside it: the generated CRD validators are bundled in (the module that finds them
//   next to an installation is replaced) and the OIDC templates are its assets (node:sea);
// - react-devtools-core, an optional peer of Ink loaded only when DEV=true, is not installed: it is
//   replaced by a module that fails as a missing module does, which Ink reports and runs on without.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE_OPTIONS, lazyBuiltins } from './build.mjs';
import { writeCrdValidators } from './crd-validators.mjs';
import { ACTIVE_LTS, installNode } from './node-lines.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The modules replaced inside the executable (see the top of this file); `validators` is the generated file's code. */
function replacements(validators) {
  const modules = {
    'crd-validators-file': "export const loadGeneratedValidators = () => require('cloudgate:crd-validators.cjs');",
    'crd-validators.cjs': validators,
    'react-devtools-core': "throw Object.assign(new Error('react-devtools-core is not part of the cloudgate executable'), { code: 'ERR_MODULE_NOT_FOUND' });",
  };
  return {
    name: 'replacements',
    setup(on) {
      // The launcher loads the bundle of npm's build; the executable bundles the sources it comes from.
      on.onResolve({ filter: /^\.\.\/dist\/cli\.js$/ }, () => ({ path: join(ROOT, 'src', 'cli.ts') }));
      on.onResolve({ filter: /^\.\/crd-validators-file\.js$|^react-devtools-core$|^cloudgate:crd-validators\.cjs$/ }, (args) => ({
        path: args.path.replace(/^\.\/|^cloudgate:|\.js$/g, ''), namespace: 'replaced',
      }));
      on.onLoad({ filter: /.*/, namespace: 'replaced' }, (args) => ({ contents: modules[args.path], loader: 'js', resolveDir: ROOT }));
    },
  };
}

function run(command, args, cwd = undefined) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 600_000 });
  if (result.error || result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed: ${result.error?.message ?? `exit ${result.status}: ${result.stderr.trim()}`}`);
  }
  return result.stdout;
}

/** The `strip` of binutils that reads `arch`'s binaries (Debian: binutils, binutils-aarch64-linux-gnu), if installed. */
function stripFor(arch) {
  const tool = arch === process.arch ? 'strip' : `${{ arm64: 'aarch64', x64: 'x86_64' }[arch]}-linux-gnu-strip`;
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).error ? undefined : tool;
}

/**
 * Builds the executable for `arch` into `out` and returns its path. The code cache is V8's, made by the
 * building Node: only a build on the target's own architecture carries it.
 */
export async function buildExecutable({ arch = process.arch, out, offline = false, strip = true, log = () => {} } = {}) {
  const output = resolve(out ?? join(ROOT, 'dist', `cloudgate-linux-${arch}`));
  const hostNode = installNode({ offline, log });
  const targetNode = arch === process.arch ? hostNode : installNode({ arch, offline, log });
  const work = mkdtempSync(join(tmpdir(), 'cloudgate-exe-'));
  try {
    const validators = join(work, 'crd-validators.cjs');
    await writeCrdValidators(new URL(`file://${validators}`));
    const main = join(work, 'cloudgate.mjs');
    await build({
      ...BUNDLE_OPTIONS,
      entryPoints: [join(ROOT, 'bin', 'cloudgate.js')],
      outfile: main,
      target: `node${ACTIVE_LTS.version.split('.')[0]}`,
      absWorkingDir: ROOT,
      plugins: [replacements(readFileSync(validators, 'utf8')), lazyBuiltins],
    });
    // Node's binary carries its debugging symbols (a fifth of its size); the executable needs none.
    let executable = targetNode;
    const stripper = strip ? stripFor(arch) : undefined;
    if (stripper) {
      executable = join(work, 'node');
      copyFileSync(targetNode, executable);
      run(stripper, [executable]);
    } else if (strip) log(`no strip for linux-${arch} binaries is installed (binutils): the executable keeps Node's debugging symbols`);
    const templates = join(ROOT, 'templates', 'oidc');
    // Paths relative to the work folder, which --build-sea runs in: the blob records the main script's
    // name, and a temporary folder's would make each build differ.
    const config = {
      main: 'cloudgate.mjs',
      mainFormat: 'module',
      executable,
      output: 'cloudgate',
      disableExperimentalSEAWarning: true,
      useCodeCache: arch === process.arch,
      assets: Object.fromEntries(readdirSync(templates).map((name) => [`templates/oidc/${name}`, join(templates, name)])),
    };
    writeFileSync(join(work, 'sea.json'), JSON.stringify(config, null, 2));
    run(hostNode, ['--build-sea', 'sea.json'], work);
    mkdirSync(dirname(output), { recursive: true });
    // Moved into place whole: a reader never sees half an executable.
    const staged = `${output}.tmp-${process.pid}`;
    copyFileSync(join(work, config.output), staged);
    chmodSync(staged, 0o755);
    renameSync(staged, output);
    log(`${output}: ${(statSync(output).size / 1024 / 1024).toFixed(1)} MiB, Node ${ACTIVE_LTS.version} linux-${arch}${config.useCodeCache ? ', with code cache' : ', without code cache (built on another architecture)'}`);
    return output;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const value = (flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  try {
    await buildExecutable({ arch: value('--arch'), out: value('--out'), offline: argv.includes('--offline'), strip: !argv.includes('--no-strip'), log: (m) => process.stderr.write(`${m}\n`) });
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
