// The Node line cloudgate is tested on beside the machine's own, and that builds the single executable: the
// active LTS, taken from the npm registry's `node-linux-<arch>` package (it ships Node's own binary) and
// unpacked into a cache folder. Nothing else is downloaded.
//   node scripts/node-lines.mjs install [--arch x64|arm64]   installs if needed, prints the binary's path
//   node scripts/node-lines.mjs path [--arch x64|arm64]      prints the path, or exits 1 when not installed
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The active LTS line, pinned: the registry's integrity of each package is checked against these. */
export const ACTIVE_LTS = {
  version: '26.12.1',
  integrity: {
    x64: 'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==',
    arm64: 'sha512-8Oxs6Y7rDcKufVIM/zYRSwytj46WOrZk7yFCLTKDcs17bBjAeD9HMAqo97hMfMyxozIud0S4vZCs5WB/3iavNQ==',
  },
};

export const ARCHES = Object.keys(ACTIVE_LTS.integrity);

/** $CLOUDGATE_NODE_CACHE, else cloudgate/node in the user's cache folder ($XDG_CACHE_HOME or ~/.cache). */
export function cacheRoot(env = process.env) {
  if (env.CLOUDGATE_NODE_CACHE) return env.CLOUDGATE_NODE_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cloudgate', 'node');
}

/** Where the binary of `version` for `arch` lives once installed. */
export function nodeBinary({ version = ACTIVE_LTS.version, arch = process.arch, env = process.env } = {}) {
  return join(cacheRoot(env), `${version}-linux-${arch}`, 'bin', 'node');
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 600_000, ...options });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr.trim().slice(-500)}`);
  return result.stdout;
}

/**
 * The active LTS binary for `arch`, installed first when it is not there yet (unless `offline`, which
 * throws instead, for tests: they download nothing). `pack` fetches the package into a folder and
 * returns its tarball and integrity (npm's own client, by default).
 */
export function installNode({ arch = process.arch, offline = false, env = process.env, pack = npmPack, log = () => {} } = {}) {
  const { version } = ACTIVE_LTS;
  const expected = ACTIVE_LTS.integrity[arch];
  if (!expected) throw new Error(`no Node package for the architecture ${arch}; known: ${ARCHES.join(', ')}`);
  const binary = nodeBinary({ version, arch, env });
  if (existsSync(binary)) return binary;
  if (offline) {
    throw new Error(`Node ${version} (linux-${arch}) is not installed in ${cacheRoot(env)}: run "node scripts/node-lines.mjs install${arch === process.arch ? '' : ` --arch ${arch}`}"`);
  }
  const root = cacheRoot(env);
  mkdirSync(root, { recursive: true, mode: 0o755 });
  const work = mkdtempSync(join(root, '.install-'));
  try {
    log(`fetching node-linux-${arch}@${version} from the npm registry`);
    const { tarball, integrity } = pack(`node-linux-${arch}@${version}`, work);
    if (integrity !== expected) throw new Error(`node-linux-${arch}@${version} has integrity ${integrity}, not the pinned ${expected}: refused`);
    const unpacked = join(work, 'node');
    mkdirSync(unpacked);
    run('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1', '--no-same-owner']);
    if (!existsSync(join(unpacked, 'bin', 'node'))) throw new Error(`node-linux-${arch}@${version} holds no bin/node`);
    // Renamed into place whole, so a folder that exists holds a complete install.
    try {
      renameSync(unpacked, join(root, `${version}-linux-${arch}`));
    } catch (error) {
      if (!existsSync(binary)) throw error;
    }
    return binary;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `npm pack <package>@<version>` into `dir`: npm checks the tarball against the registry's integrity. */
export function npmPack(spec, dir) {
  const [packed] = JSON.parse(run('npm', ['pack', spec, '--pack-destination', dir, '--json', '--silent']));
  return { tarball: join(dir, packed.filename), integrity: packed.integrity };
}

/** The version a Node binary reports, without its leading v. */
export function versionOf(binary) {
  return run(binary, ['--version']).trim().replace(/^v/, '');
}

function main(argv) {
  const [verb, ...rest] = argv;
  const at = rest.indexOf('--arch');
  const arch = at >= 0 ? rest[at + 1] : process.arch;
  if (verb === 'install') {
    const binary = installNode({ arch, log: (m) => process.stderr.write(`${m}\n`) });
    if (arch === process.arch && versionOf(binary) !== ACTIVE_LTS.version) throw new Error(`${binary} is not Node ${ACTIVE_LTS.version}`);
    process.stdout.write(`${binary}\n`);
  } else if (verb === 'path') {
    const binary = nodeBinary({ arch });
    if (!existsSync(binary)) {
      process.stderr.write(`Node ${ACTIVE_LTS.version} (linux-${arch}) is not installed: node scripts/node-lines.mjs install\n`);
      process.exitCode = 1;
    } else process.stdout.write(`${binary}\n`);
  } else {
    process.stderr.write('usage: node scripts/node-lines.mjs install|path [--arch x64|arm64]\n');
    process.exitCode = 2;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
