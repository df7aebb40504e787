import { describe, expect, it } from 'vitest';
import {
  closestFlag,
  COMMAND_OPTIONS,
  commandHelp,
  operandsText,
  parseOptionsOf,
  usageLine,
} from '../../src/cli-options.js';

describe('the options table', () => {
  it.each(Object.keys(COMMAND_OPTIONS))(
    '%s: the parser and the help come from the same flags, each described',
    (name) => {
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
    },
  );

  it('suggests the flag meant, and nothing for a word far from every flag', () => {
    expect(closestFlag(COMMAND_OPTIONS.setup, 'dryrun')).toBe('dry-run');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'inventroy')).toBe('inventory');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'list')).toBe('list-checks');
    expect(closestFlag(COMMAND_OPTIONS.doctor, 'frobnicate')).toBeUndefined();
  });
});

describe("operands: the arguments of cmctl's tools", () => {
  it.each<[string, string]>([
    ['status', 'certificate NAMESPACE/NAME'],
    ['inspect', 'secret NAMESPACE/NAME'],
    ['renew', 'NAMESPACE/NAME...'],
    ['doctor', ''],
  ])('%s takes %j', (name, text) => {
    const command = COMMAND_OPTIONS[name];
    expect(operandsText(command)).toBe(text);
    expect(usageLine(name, command)).toBe(
      `cloudgate ${name}${text ? ` ${text}` : ''} [options]   (cloudgate ${name} --help lists them)`,
    );
    const help = commandHelp(name, command);
    expect(help.includes('Arguments:')).toBe(text !== '');
    for (const operand of command.operands ?? []) expect(help).toContain(`  ${operand.name}`);
  });
});
