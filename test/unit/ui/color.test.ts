import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../../src/ui/color.js';

describe('the colour rule', () => {
  it.each([
    [{}, true],
    [{ NO_COLOR: '1' }, false],
    [{ NO_COLOR: '' }, true],
    [{ TERM: 'dumb' }, false],
    [{ TERM: 'xterm-256color' }, true],
  ] as [NodeJS.ProcessEnv, boolean][])('%o → %s', (env, expected) => {
    expect(colorEnabled(env)).toBe(expected);
  });
});
