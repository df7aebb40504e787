/**
 * What every command runs in: the terminal, the environment and the folder. Flags are not here: each
 * command turns its typed flags (src/cli-flags.ts) into the typed settings core takes.
 */
export interface CommandContext {
  /** Decided once in cli.ts: TTY on stdin and stdout, and not CI. */
  interactive: boolean;
  /** Decided once in cli.ts: the terminal cannot draw the full-screen walkthrough (TERM=dumb); the line prompts ask instead. */
  plainTerminal?: boolean;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The path of the running program (bin/cloudgate.js), for the commands it prints. */
  program?: string;
}
