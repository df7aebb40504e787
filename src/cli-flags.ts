/**
 * Each command's flags as a typed object, derived from the options table (cli-options.ts): a flag
 * with a value is a string (or string[] when repeatable), an on/off flag a boolean, and the keys are
 * the flags' names in camelCase (`--dry-run` is `dryRun`). A flag the table does not list is a
 * compile error in the command that reads it. Parsed once, in cli.ts; the command turns its flags
 * into the typed settings core takes.
 */
import { COMMAND_OPTIONS, parseOptionsOf, type CommandName, type Flag, type OptionsTable } from './cli-options.js';
import type { CommandContext } from './core/run-context.js';

type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

type ValueOf<F extends Flag> = F extends { value: string }
  ? F extends { choices: readonly (infer C)[] }
    ? F extends { list: true }
      ? C[]
      : C | undefined
    : F extends { multiple: true }
      ? string[]
      : string | undefined
  : boolean;

type FlagOf<C extends CommandName> = OptionsTable[C]['flags'][number];

/** The flags of command C: exactly its flags, each with its type. */
export type FlagsOf<C extends CommandName> = { readonly [F in FlagOf<C> as Camel<F['name']>]: ValueOf<F> };

/**
 * A command's entry point: the run context, its own typed flags, and its operands (the arguments that
 * are no flags, checked against the table's `operands`; the fixed words left out): empty for a command
 * that takes flags only.
 */
export type Command<C extends CommandName> = (
  ctx: CommandContext,
  flags: FlagsOf<C>,
  operands: readonly string[],
) => Promise<number>;

export const camelCase = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * node:util's parsed values (kebab-case names) as command C's typed flags: every flag present, an
 * absent one `undefined`, `false` or `[]`.
 */
export type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export function flagsOf<C extends CommandName>(command: C, values: ParsedValues): FlagsOf<C> {
  const table = COMMAND_OPTIONS[command];
  const options = parseOptionsOf(table);
  const flags: Record<string, string | boolean | string[] | undefined> = {};
  for (const [name, option] of Object.entries(options)) {
    const given = values[name];
    const key = camelCase(name);
    const list = table.flags.find((f) => f.name === name)?.list;
    if (option.type === 'boolean') flags[key] = given === true;
    else if (list)
      flags[key] = commaList(
        Array.isArray(given)
          ? given.filter((v) => typeof v === 'string')
          : typeof given === 'string'
            ? given
            : undefined,
      );
    else if (option.multiple)
      flags[key] = Array.isArray(given)
        ? given.filter((v) => typeof v === 'string')
        : typeof given === 'string'
          ? [given]
          : [];
    else flags[key] = typeof given === 'string' ? given : undefined;
  }
  // Built from the same table FlagsOf<C> is derived from, key by key; a flag's choices were checked by the parser (cli.ts).
  return flags as FlagsOf<C>;
}

/** A comma-separated flag (possibly repeated) as its items: `--only a,b --only c` is [a, b, c]. */
export function commaList(value: string | readonly string[] | undefined): string[] {
  const values = value === undefined ? [] : typeof value === 'string' ? [value] : value;
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}
