// Bundles src/cli.ts with code splitting: the entry stays small so `--version` and `--help`
// never load Ink/React; each command is a lazily imported chunk. Dependencies are bundled into
// the chunks too: resolving and loading hundreds of small modules from node_modules (Ink alone
// pulls in several hundred) costs far more start-up time than reading one larger file.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { writeCrdValidators } from './crd-validators.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // An optional peer that is never used at run time (React devtools).
  external: ['react-devtools-core'],
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
  chunkNames: 'chunks/[name]-[hash]',
});

await writeCrdValidators(new URL('../dist/crd-validators.cjs', import.meta.url));
