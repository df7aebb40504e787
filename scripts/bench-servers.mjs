// The test identity server and certificate builder for the bench sections that need them. They are
// TypeScript: bundled once next to node_modules so their imports resolve.
import { dirname, join } from 'node:path';

export async function loadTestServers() {
  const { build } = await import('esbuild');
  const outfile = new URL('../node_modules/.cache/cloudgate-bench/identity.mjs', import.meta.url).pathname;
  await build({
    entryPoints: [new URL('../test/servers/identity.ts', import.meta.url).pathname, new URL('../test/helpers/pki.ts', import.meta.url).pathname],
    outdir: dirname(outfile), bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning', outExtension: { '.js': '.mjs' },
  });
  const identity = await import(join(dirname(outfile), 'servers/identity.mjs'));
  const pki = await import(join(dirname(outfile), 'helpers/pki.mjs'));
  return { startIdentityServer: identity.startIdentityServer, createTestCA: pki.createTestCA };
}
