import { readFileSync } from 'node:fs';
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

  it.each(Object.keys(COMMAND_OPTIONS))('%s: every flag its command file reads is in the table', (name) => {
    const source = readFileSync(new URL(`../../src/commands/${name}.ts`, import.meta.url), 'utf8');
    const read = [...source.matchAll(/\b(?:str|bool|list)\((?:ctx\.)?flags, '([a-z-]+)'\)/g)].map((m) => m[1]);
    const known = new Set(COMMAND_OPTIONS[name].flags.map((f) => f.name));
    expect(read.filter((flag) => !known.has(flag))).toEqual([]);
  });

  it('suggests the flag meant, and nothing for a word far from every flag', () => {
    expect(closestFlag(COMMAND_OPTIONS.setup, 'dryrun')).toBe('dry-run');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'inventroy')).toBe('inventory');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'list')).toBe('list-checks');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'frobnicate')).toBeUndefined();
  });
});
