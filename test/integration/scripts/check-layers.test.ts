import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '../../../scripts/check-layers.mjs');

/** A small src/ tree: each entry is a file and what it imports. */
function tree(files: Record<string, string[]>): string {
  const root = mkdtempSync(join(tmpdir(), 'cg-layers-'));
  for (const [path, imports] of Object.entries(files)) {
    const full = join(root, 'src', path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(
      full,
      imports.map((spec, i) => `import { x${i} } from '${spec}';\n`).join('') + 'export const x = 1;\n',
    );
  }
  return root;
}

function check(root: string): { code: number | null; problems: string[] } {
  const result = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8', timeout: 10_000 });
  return {
    code: result.status,
    problems: result.stderr
      .split('\n')
      .filter((l) => l.startsWith('  '))
      .map((l) => l.trim()),
  };
}

// What every rule allows: the registry and the commands assemble the areas; areas use the core below them.
const ALLOWED = {
  'core/areas/index.ts': ['./tls/index.js', './signin/index.js'],
  'core/areas/tls/index.ts': ['../../config/formats.js', '../../net/http.js', './checks.js'],
  'core/areas/tls/checks.ts': ['../../doctor/types.js'],
  'core/areas/signin/index.ts': ['../../doctor/input.js'],
  'core/config/formats.ts': ['node:net'],
  'core/net/http.ts': ['../config/formats.js', 'undici'],
  'core/doctor/types.ts': [],
  'core/doctor/input.ts': ['./types.js'],
  'commands/doctor.ts': ['../core/areas/index.js', '../ui/text/text.js'],
  'ui/text/text.ts': ['../../core/doctor/types.js', 'react'],
  'serve/exporter.ts': ['../core/doctor/types.js'],
};

describe('the layering check', () => {
  it('passes a tree that keeps the rules', () => {
    const result = check(tree(ALLOWED));
    expect(result).toEqual({ code: 0, problems: [] });
  });

  it.each([
    ['core/setup/plan.ts', '../../ui/ink/setup/types.js', 'core must not import ui/'],
    ['core/doctor/runner.ts', '../../commands/doctor.js', 'core must not import commands/'],
    ['core/net/http.ts', '../../serve/http.js', 'core must not import serve/'],
    ['core/setup/wizard.ts', 'ink', 'core must not use the UI library ink'],
    ['core/setup/wizard.ts', 'react', 'core must not use the UI library react'],
    ['core/setup/confirm.ts', '@inquirer/prompts', 'core must not use the UI library @inquirer/prompts'],
    ['ui/ink/setup/services.ts', '../../../commands/doctor.js', 'ui/ must not import commands/'],
    ['serve/exporter.ts', '../commands/doctor.js', 'serve/ must not import commands/'],
    ['core/areas/signin/checks.ts', '../tls/endpoints.js', 'area signin must not import area tls'],
    ['core/doctor/runner.ts', '../areas/tls/checks.js', 'core/doctor/ is below the areas and must not import area tls'],
    [
      'core/config/discovery-settings.ts',
      '../areas/tls/endpoints.js',
      'core/config/ is below the areas and must not import area tls',
    ],
    [
      'core/setup/wizard-flow.ts',
      '../areas/tls/endpoints.js',
      'core/setup/ is below the areas and must not import area tls',
    ],
    ['core/oidc/plan.ts', '../areas/tls/endpoints.js', 'core/oidc/ is below the areas and must not import area tls'],
    ['core/errors.ts', './areas/tls/endpoints.js', 'core/errors.ts is below the areas and must not import area tls'],
  ])('%s importing %s: %s', (file, spec, why) => {
    const result = check(tree({ ...ALLOWED, [file]: [spec] }));
    expect(result.code).toBe(1);
    expect(result.problems).toEqual([`src/${file}: imports ${spec}: ${why}`]);
  });
});
