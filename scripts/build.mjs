// Bundles src/cli.ts with code splitting: the entry stays small so `--version` and `--help`
// never load Ink/React; each command is a lazily imported chunk.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/cli.ts'],
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  jsx: 'automatic',
  sourcemap: false,
  logLevel: 'warning',
  define: { __CLOUDGATE_VERSION__: JSON.stringify(pkg.version) },
  chunkNames: 'chunks/[name]-[hash]',
});
