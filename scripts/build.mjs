// Bundles src/cli.ts with code splitting: the entry stays small so `--version` and `--help`
// never load Ink/React; each command is a lazily imported chunk. Dependencies are bundled into
// the chunks too: resolving and loading hundreds of small modules from node_modules (Ink alone
// pulls in several hundred) costs far more start-up time than reading one larger file.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { writeCrdValidators } from './crd-validators.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** What both bundles share: this one (npm's `cloudgate`) and the single executable's (scripts/build-exe.mjs). */
export const BUNDLE_OPTIONS = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  jsx: 'automatic',
  minifySyntax: true,
  sourcemap: false,
  logLevel: 'warning',
  legalComments: 'none',
  // CommonJS dependencies bundled into ESM still call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __cgCreateRequire } from 'node:module'; const require = __cgCreateRequire(import.meta.url);",
  },
  define: { __CLOUDGATE_VERSION__: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
};

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`), 'node:sea', 'node:sqlite', 'node:test']);

/**
 * Node's built-ins are required (through the banner's require), never imported. On Node 26 an ES import
 * of a built-in builds its module namespace by reading every export, and the lazy ones load what they
 * stand for: `import ... from 'node:http'` loads undici, zlib and http2 too (194 internal modules
 * instead of 111): importing node:http and node:https takes 14 ms more than requiring them (Node 20: the
 * same either way). In the executable's one bundle, where esbuild hoists every import to the top, a
 * require also runs only once the module needing it is first evaluated.
 */
export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(on) {
    on.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      if (!BUILTINS.has(args.path)) return undefined;
      if (args.namespace === 'builtin') return { path: args.path, external: true };
      return args.kind === 'import-statement' ? { path: args.path, namespace: 'builtin' } : undefined;
    });
    on.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/**
 * The oldest Node the bundle runs on: Debian stable's 20.19 (package.json's `engines`). The maintained
 * LTS lines (22, 24, 26) are newer, so their syntax needs no lowering either.
 */
export const NODE_TARGET = 'node20.19';

async function main() {
  rmSync(new URL('../dist/cli.js', import.meta.url), { force: true });
  rmSync(new URL('../dist/chunks', import.meta.url), { recursive: true, force: true });
  await build({
    ...BUNDLE_OPTIONS,
    entryPoints: ['src/cli.ts'],
    outdir: 'dist',
    splitting: true,
    target: NODE_TARGET,
    // An optional peer that is never used at run time (React devtools).
    external: ['react-devtools-core'],
    plugins: [lazyBuiltins],
    chunkNames: 'chunks/[name]-[hash]',
  });
  await writeCrdValidators(new URL('../dist/crd-validators.cjs', import.meta.url));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
