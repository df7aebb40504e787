/**
 * README is the front page: its two commands at the top stay true, and every command has a reference
 * page in docs/commands/ that names each of its flags (the flags come from src/cli-options.ts, the
 * table --help is printed from).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_OPTIONS } from '../../../src/cli-options.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const README = read('README.md');

describe('README front page', () => {
  it('starts with the install-and-run and install-and-test commands, and names npm test', () => {
    const top = /^# cloudgate\n\n```sh\n(.*)\n(.*)\n```\n/.exec(README);
    expect(top?.[1]).toMatch(/^npm ci && npm run setup\s+#/);
    expect(top?.[2]).toMatch(/^bash \.ci\/run\s+#/);
    expect(README).toContain('The test command is `npm test`');
  });

  it('those commands do what README says: setup builds and starts the walkthrough, .ci/run installs and runs npm test on two Node lines', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    // The walkthrough runs in the folder npm was started from (INIT_CWD), with the checkout's build.
    expect(scripts.setup).toMatch(
      /^npm run build && cd "\$\{INIT_CWD:-\.\}" && node "\$OLDPWD\/bin\/cloudgate\.js" setup$/,
    );
    expect(scripts.test).toMatch(/^npm run build && npm run typecheck && .*vitest run$/);
    // After npm ci: the active LTS into the cache, then npm test on the machine's Node and with the LTS first on PATH.
    const ci = read('.ci/run')
      .trim()
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    const commands = ci.slice(ci.indexOf('npm ci --no-audit --no-fund'));
    expect(commands.filter((l) => /npm test/.test(l))).toEqual([
      'npm test',
      'PATH="$(dirname "$LTS_NODE"):$PATH" npm test',
    ]);
    expect(commands).toContain('LTS_NODE=$(node scripts/node-lines.mjs install)');
  });

  it.each(Object.keys(COMMAND_OPTIONS))('links the reference page of cloudgate %s, which exists', (command) => {
    expect(README).toContain(`](docs/commands/${command}.md)`);
    expect(existsSync(new URL(`../../../docs/commands/${command}.md`, import.meta.url))).toBe(true);
  });
});

describe('docs/commands pages', () => {
  it.each(Object.entries(COMMAND_OPTIONS))(
    'docs/commands/%s.md names every flag of the command',
    (command, options) => {
      const page = read(`docs/commands/${command}.md`);
      const missing = options.flags
        .map((f) => `--${f.name}`)
        .filter((flag) => !new RegExp(`${flag}(?![a-z-])`).test(page));
      expect(missing).toEqual([]);
    },
  );
});
