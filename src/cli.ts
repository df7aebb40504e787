import { isatty } from 'node:tty';
import { parseArgs } from 'node:util';
import { CancelledError, EXIT, UsageError, WriteError, codeOf, messageOf } from './core/errors.js';
import { escapeControl } from './core/escape.js';
import { isOneOf } from './core/records.js';
import { redact } from './core/secrets.js';
import type { CommandContext } from './core/run-context.js';
import { closest, notOneOf } from './core/closest.js';
import { cloudgateVersion } from './core/version.js';
import {
  closestFlag,
  COMMAND_OPTIONS,
  commandHelp,
  operandsText,
  parseOptionsOf,
  usageLine,
  type CommandName,
  type CommandOptions,
  type ParseOptions,
} from './cli-options.js';
import { commaList, flagsOf, type Command, type ParsedValues } from './cli-flags.js';

type Options = ParseOptions;

interface CommandSpec {
  options: CommandOptions;
}

// Each command is its own lazily loaded chunk: `--version` and `--help` load none of them.
const LOADERS: { [C in CommandName]: () => Promise<{ run: Command<C> }> } = {
  setup: () => import('./commands/setup.js'),
  doctor: () => import('./commands/doctor.js'),
  serve: () => import('./commands/serve.js'),
  regenerate: () => import('./commands/regenerate.js'),
  oidc: () => import('./commands/oidc.js'),
  token: () => import('./commands/token.js'),
  render: () => import('./commands/render.js'),
  schema: () => import('./commands/schema.js'),
  status: () => import('./commands/status.js'),
  inspect: () => import('./commands/inspect.js'),
  renew: () => import('./commands/renew.js'),
};

const COMMANDS: Record<string, CommandSpec> = Object.fromEntries(
  Object.keys(LOADERS).map((name) => [name, { options: COMMAND_OPTIONS[name] }]),
);

const isCommand = (name: string): name is CommandName => Object.hasOwn(LOADERS, name);

/** The command's flags, typed once here from the parsed values, and its run. */
async function runCommand<C extends CommandName>(
  name: C,
  ctx: CommandContext,
  values: ParsedValues,
  operands: readonly string[],
): Promise<number> {
  const { run } = await LOADERS[name]();
  return run(ctx, flagsOf(name, values), operands);
}

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const rows = [
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.options.summary}`),
    `  ${'config'.padEnd(width)}  Keep the inventory, cloud, kube context and CA file every run starts from`,
    `  ${'completion'.padEnd(width)}  Print a shell completion script: bash, zsh or fish`,
  ];
  return `cloudgate ${cloudgateVersion()} — certificates and sign-in diagnostics for an OpenStack-on-Kubernetes cloud

Usage: cloudgate <command> [options]

Commands:
${rows.join('\n')}

Options:
  -h, --help     Show help (also: cloudgate help <command>, cloudgate <command> --help)
  -v, --version  Show the version

Exit codes: 0 success, 1 doctor found failures, 2 usage or input error (nothing written), 130 cancelled.
`;
}

/** `cloudgate completion bash|zsh|fish`: the script on stdout, generated from the options table. */
async function completion(args: string[]): Promise<number> {
  const { completionScript, SHELLS } = await import('./cli-completion.js');
  const shell = args[0];
  if (args.length !== 1 || !isOneOf(SHELLS, shell)) {
    if (args[0] === '--help' || args[0] === '-h') {
      process.stdout.write(
        `Print a shell completion script.\n\nUsage: cloudgate completion bash|zsh|fish\n\nExamples:\n  source <(cloudgate completion bash)     # in ~/.bashrc\n  source <(cloudgate completion zsh)      # in ~/.zshrc (with or without compinit)\n  cloudgate completion fish > ~/.config/fish/completions/cloudgate.fish\n`,
      );
      return EXIT.ok;
    }
    if (args.length === 1 && shell) {
      return fail(
        notOneOf('The shell of cloudgate completion', shell, SHELLS, {
          typed: (g) => `"cloudgate completion ${g}"`,
          otherwise: 'E.g. source <(cloudgate completion bash)',
        }),
      );
    }
    return fail(
      new UsageError(
        `cloudgate completion takes one shell: ${SHELLS.join(', ')}.`,
        'E.g. source <(cloudgate completion bash)',
      ),
    );
  }
  process.stdout.write(completionScript(shell));
  return EXIT.ok;
}

/** A terminal that cannot draw (TERM=dumb: no cursor moves, no colour, ASCII): the walkthroughs ask line by line. */
export function isPlainTerminal(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TERM === 'dumb';
}

function commandContext(): CommandContext {
  return {
    interactive: isInteractive(),
    plainTerminal: isPlainTerminal(),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    program: process.argv[1],
  };
}

export function isInteractive(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  // isatty(0) rather than process.stdin.isTTY: the latter builds the stdin stream just to ask.
  return isatty(0) && isatty(1) && !ci;
}

/**
 * A reader that went away (`cloudgate doctor --list-checks | head -1`) is no error of ours: the rest of
 * the output is dropped, the command ends with its own exit code, and no Node stack trace is printed.
 * Installed once here, for every command and both streams.
 */
export function quietOnClosedPipe(stream: NodeJS.WritableStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}

export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  const [name, ...rest] = argv;
  if (name === '__complete') {
    // The shells' completion scripts ask for values that live in files: clouds.yaml, the kubeconfig.
    const { completeValues } = await import('./cli-complete-values.js');
    return completeValues(rest, commandContext());
  }
  if (name === 'config' || (name === 'help' && rest[0] === 'config' && rest.length === 1)) {
    const { runConfig } = await import('./commands/config.js');
    try {
      return await runConfig(name === 'help' ? ['--help'] : rest, commandContext());
    } catch (error) {
      return fail(error);
    }
  }
  if (name === 'help' && rest.length > 0) {
    const wanted = COMMANDS[rest[0]];
    if (!wanted || rest.length > 1)
      return fail(new UsageError(`No help for "${rest.join(' ')}".`, 'Run "cloudgate help" for the list of commands.'));
    process.stdout.write(commandHelp(rest[0], wanted.options));
    return EXIT.ok;
  }
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === 'completion') return completion(rest);
  if (name === '-v' || name === '--version') {
    process.stdout.write(`${cloudgateVersion()}\n`);
    return EXIT.ok;
  }
  const spec = COMMANDS[name];
  if (!spec || !isCommand(name)) {
    const guess = closest(name, Object.keys(COMMANDS));
    return fail(
      new UsageError(
        `Unknown command "${name}".`,
        `${guess ? `Did you mean "cloudgate ${guess}"? ` : ''}Run "cloudgate --help" for the list of commands.`,
      ),
    );
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandHelp(name, spec.options));
    return EXIT.ok;
  }
  try {
    const options = parseOptionsOf(spec.options);
    refuseSecretFlags(name, rest, options);
    const parsed = parseCommandLine(name, spec.options, options, rest);
    return await runCommand(name, commandContext(), parsed.values, parsed.operands);
  } catch (error) {
    return fail(error, usageLine(name, spec.options));
  }
}

/** node:util's parser, with its errors in the operator's terms: the flag, what is wrong, the likely fix. */
function parseCommandLine(name: string, command: CommandOptions, options: Options, args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = codeOf(error);
    const message = messageOf(error);
    const flag = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const bare = flag.replace(/^-+/, '').split('=')[0];
      const guess = closestFlag(command, bare);
      throw new UsageError(
        `Unknown option ${flag.split('=')[0]} for cloudgate ${name}.`,
        `${guess ? `Did you mean --${guess}? ` : ''}Run "cloudgate ${name} --help" for its options.`,
      );
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const known = command.flags.find((f) => flag === `--${f.name}`);
      throw new UsageError(
        known?.value ? `${flag} needs a value (${known.value}).` : `${flag} takes no value.`,
        `Run "cloudgate ${name} --help" for its options.`,
      );
    }
    throw error;
  }
  refuseEmptyValues(name, command, parsed.values);
  refuseOtherValues(command, parsed.values);
  return { values: parsed.values, operands: operandsOf(name, command, parsed.positionals) };
}

/**
 * The arguments that are no flags, against the table's operands: each fixed word in its place (with
 * "did you mean"), each argument present, no more than the command takes. The words are left out.
 */
function operandsOf(name: string, command: CommandOptions, positionals: string[]): string[] {
  const expected = command.operands ?? [];
  const usage = `Usage: cloudgate ${name}${expected.length ? ` ${operandsText(command)}` : ''} [options]; "cloudgate ${name} --help" says more.`;
  if (expected.length === 0) {
    if (positionals.length === 0) return [];
    throw new UsageError(
      `Unexpected argument "${positionals[0]}": cloudgate ${name} takes options only.`,
      `Did a flag lose its value? Run "cloudgate ${name} --help" for its options.`,
    );
  }
  const operands: string[] = [];
  let given = 0;
  for (const operand of expected) {
    const value = positionals[given];
    if (operand.word) {
      if (value !== operand.name) {
        const guess = value === undefined ? undefined : closest(value, [operand.name]);
        throw new UsageError(
          value === undefined
            ? `cloudgate ${name} needs "${operand.name}" (${operand.description}).`
            : `cloudgate ${name} takes "${operand.name}", not "${value}".`,
          `${guess ? `Did you mean "${guess}"? ` : ''}${usage}`,
        );
      }
      given++;
      continue;
    }
    if (value === undefined)
      throw new UsageError(`cloudgate ${name} needs ${operand.name}: ${operand.description}.`, usage);
    const taken = operand.repeatable ? positionals.slice(given) : [value];
    operands.push(...taken);
    given += taken.length;
  }
  if (given < positionals.length)
    throw new UsageError(
      `Unexpected argument "${positionals[given]}": cloudgate ${name} takes ${operandsText(command)}.`,
      usage,
    );
  return operands;
}

/**
 * Flags whose empty value (`--inventory=`, `--only ""`, a shell variable that expanded to nothing) would
 * silently mean the default: `--inventory=` read the current folder, `--only ""` ran every group. The
 * other flags check their values themselves (e.g. --timeout names its range).
 */
const NEVER_EMPTY = new Set(['inventory', 'only']);

function refuseEmptyValues(name: string, command: CommandOptions, values: Record<string, unknown>): void {
  for (const flag of command.flags) {
    if (!flag.value || !NEVER_EMPTY.has(flag.name)) continue;
    const given = values[flag.name];
    const items = Array.isArray(given) ? given : given === undefined ? [] : [given];
    const blank = items.some((v) => typeof v === 'string' && v.split(',').every((part) => part.trim() === ''));
    if (blank) {
      throw new UsageError(
        `--${flag.name} was given an empty value; it needs ${flag.value}.`,
        `Give --${flag.name} a value, or leave the flag out for its default. Run "cloudgate ${name} --help" for its options.`,
      );
    }
  }
}

/** A flag with choices given a value outside them (each item of a list flag): the one wording of "not one of these". */
function refuseOtherValues(command: CommandOptions, values: Record<string, unknown>): void {
  for (const flag of command.flags) {
    const given = values[flag.name];
    if (!flag.choices || typeof given !== 'string') continue;
    for (const item of flag.list ? commaList(given) : [given]) {
      if (!flag.choices.includes(item)) throw notOneOf(`--${flag.name}`, item, flag.choices);
    }
  }
}

/** Errors quote what the operator, servers and files gave: redacted, control characters escaped. */
function printError(text: string): void {
  process.stderr.write(`${escapeControl(redact(text))}\n`);
}

function fail(error: unknown, usage?: string): number {
  if (error instanceof CancelledError) {
    printError(error.message);
    return EXIT.cancelled;
  }
  if (error instanceof WriteError) {
    printError(`error: ${error.message}`);
    if (error.advice) printError(`  ${error.advice}`);
    return EXIT.findings;
  }
  if (error instanceof UsageError || isParseArgsError(error)) {
    const advice = error instanceof UsageError ? error.advice : undefined;
    printError(`error: ${error.message}`);
    if (advice) printError(`  ${advice}`);
    else if (usage) process.stderr.write(`usage: ${usage}\n`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  printError(`cloudgate: unexpected error: ${message}`);
  if (process.env.CLOUDGATE_DEBUG && error instanceof Error) printError(`${error.stack}`);
  return EXIT.findings;
}

// Names of settings that hold secrets; `*-file` options name a file, which is how secrets are given.
const SECRET_NAME = /secret|password|passwd|passphrase|token|private[-_]?key|api[-_]?key|credential/i;
const SIGNIN_SECRETS = new Set(['client_secret', 'subject_token', 'idp_client_secret']);

/**
 * A secret on the command line ends up in the shell history and the process list: an unknown option
 * named like a secret (`--client-secret`, `--password`, `--api-token`) is refused with where secrets go
 * instead of "Unknown option". Its value is never echoed.
 */
function refuseSecretFlags(command: string, args: string[], options: Options): void {
  for (const arg of args) {
    if (arg === '--') return;
    if (!arg.startsWith('--')) continue;
    const flag = arg.slice(2).split('=')[0];
    if (flag in options || !SECRET_NAME.test(flag) || /[-_]file$/i.test(flag)) continue;
    throw new UsageError(
      `--${flag} is refused: secrets are never taken from flags (the shell history and the process list would show them).`,
      secretAdvice(command, flag),
    );
  }
}

function secretAdvice(command: string, flag: string): string {
  const key = flag.replaceAll('-', '_').toLowerCase();
  const env = `CLOUDGATE_${key.toUpperCase()}`;
  if (command === 'setup' || command === 'regenerate') {
    const example = key.startsWith('cluster_issuer_') ? key : 'cluster_issuer_acme_rfc2136_tsig_secret_key';
    return `Use the --answers FILE (e.g. "${example}: ..."; "file:PATH" reads the value from a file) or answer the walkthrough's question; the inventory is written with mode 0600.`;
  }
  if (SIGNIN_SECRETS.has(key)) {
    return `Use ${env}, "${key}:" in the "signin:" section of --config, or a file: ${env}_FILE or "${key}_file:" in --config.`;
  }
  return `Use the environment (CLOUDGATE_<NAME>), the --config file, or a file named by <name>_file in --config or CLOUDGATE_<NAME>_FILE; the README section on secrets lists them.`;
}

function isParseArgsError(error: unknown): error is TypeError {
  return error instanceof TypeError && (codeOf(error)?.startsWith('ERR_PARSE_ARGS') ?? false);
}
