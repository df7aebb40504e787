import { describe, expect, it } from 'vitest';
import { requireTool, skipNote, toolRuns, underCI } from '../../helpers/tools.js';

const missing = () => false;

describe('requireTool', () => {
  it('fails under CI when the tool is missing, naming the Debian package', () => {
    expect(() => requireTool('kubectl', 'kubernetes-client', { env: { CI: 'true' }, runs: missing })).toThrow(
      /kubectl is not installed \(Debian package kubernetes-client.*CI is set/,
    );
  });

  it('skips outside CI, and says why once', () => {
    const warnings: string[] = [];
    expect(requireTool('named', 'bind9', { env: {}, runs: missing, warn: (m) => warnings.push(m) })).toBe(false);
    expect(warnings).toEqual([expect.stringContaining('named is not installed (Debian package bind9')]);
  });

  it.each([{ CI: '' }, { CI: '0' }, { CI: 'false' }, {}])('treats CI=%j as not CI', (env) => {
    expect(underCI(env)).toBe(false);
    expect(requireTool('pebble', 'pebble', { env, runs: missing, warn: () => {} })).toBe(false);
  });

  it('is true when the tool runs, CI or not, and asks for the binary given', () => {
    const asked: string[] = [];
    expect(
      requireTool('kubectl', 'kubernetes-client', {
        binary: '/opt/kubectl',
        env: { CI: 'true' },
        runs: (b) => (asked.push(b), true),
      }),
    ).toBe(true);
    expect(asked).toEqual(['/opt/kubectl']);
  });

  it('probes the machine: node runs, a name that is no program does not', () => {
    expect(toolRuns(process.execPath, ['--version'])).toBe(true);
    expect(toolRuns('cloudgate-no-such-tool-3f9a')).toBe(false);
  });

  it('gives a title note only when the tool is missing', () => {
    expect(skipNote(true, 'tmux', 'tmux')).toBe('');
    expect(skipNote(false, 'tmux', 'tmux')).toMatch(/skipped: tmux is not installed \(Debian package tmux/);
  });
});
