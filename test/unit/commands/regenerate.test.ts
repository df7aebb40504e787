/**
 * `cloudgate regenerate` asks through the questions-only walkthrough and plans and writes without a
 * setup session: the session module is not among the modules it can load (its dynamic imports, the
 * Ink and plain front-ends, included), while `cloudgate setup` loads it.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every source file an entry can load, statically or through a dynamic import (type-only imports excluded). */
async function modulesOf(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: 'unused',
    platform: 'node',
    packages: 'external',
    jsx: 'automatic',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

describe('what cloudgate regenerate loads', () => {
  it('asks with the questions model alone and builds no setup session', async () => {
    const modules = await modulesOf('src/commands/regenerate.ts');
    expect(modules).toEqual(
      expect.arrayContaining([
        'src/core/setup/questions.ts',
        'src/ui/ink/setup/Questions.tsx',
        'src/ui/plain/questions.ts',
        'src/core/setup/plan-write.ts',
      ]),
    );
    expect(modules).not.toContain('src/core/setup/session.ts');
    expect(modules).not.toContain('src/ui/ink/setup/SetupApp.tsx');
  });

  it('setup, by contrast, runs its walkthrough on a session', async () => {
    const modules = await modulesOf('src/commands/setup.ts');
    expect(modules).toEqual(
      expect.arrayContaining([
        'src/core/setup/session.ts',
        'src/core/setup/questions.ts',
        'src/ui/ink/setup/SetupApp.tsx',
      ]),
    );
  });
});
