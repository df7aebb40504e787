import { describe, expect, it } from 'vitest';
import { closestFlag, COMMAND_OPTIONS, commandHelp, parseOptionsOf } from '../../src/cli-options.js';

describe('the options table', () => {
  it.each(Object.keys(COMMAND_OPTIONS))('%s: the parser and the help come from the same flags, each described', (name) => {
    const command = COMMAND_OPTIONS[name];
    const help = commandHelp(name, command);
    expect(Object.keys(parseOptionsOf(command)).sort()).toEqual(command.flags.map((f) => f.name).sort());
    for (const flag of command.flags) {
      expect(flag.description.length).toBeGreaterThan(10);
      expect(help).toContain(`--${flag.name}${flag.value ? ` ${flag.value}` : ''}`);
      expect(parseOptionsOf(command)[flag.name].type).toBe(flag.value ? 'string' : 'boolean');
    }
    expect(command.examples.length).toBeGreaterThan(0);
    expect(new Set(command.flags.map((f) => f.name)).size).toBe(command.flags.length);
  });

  it('suggests the flag meant, and nothing for a word far from every flag', () => {
    expect(closestFlag(COMMAND_OPTIONS.setup, 'dryrun')).toBe('dry-run');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'inventroy')).toBe('inventory');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'list')).toBe('list-checks');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'frobnicate')).toBeUndefined();
  });
});
