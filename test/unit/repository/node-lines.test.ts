/**
 * The Node lines, said in four places, say the same: package.json's engines, the npm build's target,
 * the active LTS that scripts/node-lines.mjs pins (CI's second Node and the executable's), and README.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

// The scripts have no types: imported by path, as the bench uses them.
const { ACTIVE_LTS } = (await import(new URL('../../../scripts/node-lines.mjs', import.meta.url).pathname)) as {
  ACTIVE_LTS: { version: string };
};
const { NODE_TARGET } = (await import(new URL('../../../scripts/build.mjs', import.meta.url).pathname)) as {
  NODE_TARGET: string;
};

describe('the Node lines', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  const lowest = /^>=(\d+\.\d+)\.0$/.exec(engines)?.[1];

  it("engines starts at Debian stable's 20.19 and the npm build targets exactly that", () => {
    expect(lowest).toBe('20.19');
    expect(NODE_TARGET).toBe(`node${lowest}`);
  });

  it('README names the supported lines, the active LTS and the version inside the executable', () => {
    const major = ACTIVE_LTS.version.split('.')[0];
    const readme = read('README.md');
    expect(readme).toContain(`\`engines\` in package.json: \`${engines}\``);
    expect(readme).toMatch(new RegExp(`22, 24 and ${major} \\(the active LTS\\)`));
    expect(readme).toContain(`its own Node (the active LTS, ${ACTIVE_LTS.version})`);
  });
});
