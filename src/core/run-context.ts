export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export interface CommandContext {
  /** Parsed flags (kebab-case names as on the command line). */
  flags: OptionValues;
  positionals: string[];
  /** Decided once in cli.ts: TTY on stdin and stdout, and not CI. */
  interactive: boolean;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export type Command = (ctx: CommandContext) => Promise<number>;

/** Reads a string flag; `undefined` when absent. */
export function str(flags: OptionValues, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function list(flags: OptionValues, name: string): string[] {
  const v = flags[name];
  if (Array.isArray(v)) return v.flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
  return typeof v === 'string' ? v.split(',').map((x) => x.trim()).filter(Boolean) : [];
}

export function bool(flags: OptionValues, name: string): boolean {
  return flags[name] === true;
}
