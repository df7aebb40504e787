import { describe, expect, it } from 'vitest';
import { COMMAND_OPTIONS, type CommandName } from '../../src/cli-options.js';
import { camelCase, commaList, flagsOf } from '../../src/cli-flags.js';

describe('typed flags from the options table', () => {
  it.each(Object.keys(COMMAND_OPTIONS))(
    "%s: the typed flags are exactly the table's, camelCased, each absent one at its default",
    (name) => {
      const flags = flagsOf(name as CommandName, {}) as Record<string, unknown>;
      const table = COMMAND_OPTIONS[name]!.flags;
      expect(Object.keys(flags).sort()).toEqual(table.map((f) => camelCase(f.name)).sort());
      for (const flag of table)
        expect(flags[camelCase(flag.name)]).toEqual(!flag.value ? false : flag.multiple || flag.list ? [] : undefined);
    },
  );

  it('types the parsed values: strings, on/off flags and repeated flags', () => {
    const flags = flagsOf('setup', {
      'dry-run': true,
      inventory: 'inv.yml',
      namespace: ['a', 'b'],
      'vault-id': 'prod@pw',
    });
    expect(flags.dryRun).toBe(true);
    expect(flags.inventory).toBe('inv.yml');
    expect(flags.namespace).toEqual(['a', 'b']);
    expect(flags.vaultId).toEqual(['prod@pw']);
    expect(flags.yes).toBe(false);
    // @ts-expect-error doctor has no --dry-run: a misspelt or foreign flag is a compile error
    expect(flagsOf('doctor', {}).dryRun).toBeUndefined();
  });

  it('gives a list flag its items, each one of its choices (the parser refused any other)', () => {
    expect(flagsOf('doctor', { only: 'tls, kube' }).only).toEqual(['tls', 'kube']);
    expect(flagsOf('doctor', { format: 'junit' }).format).toBe('junit');
  });

  it('splits comma-separated flags, repeated or not', () => {
    expect(commaList('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(commaList(['a,b', ' c '])).toEqual(['a', 'b', 'c']);
    expect(commaList(undefined)).toEqual([]);
  });
});
