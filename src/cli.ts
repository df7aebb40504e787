import { isatty } from 'node:tty';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CancelledError, EXIT, UsageError } from './core/errors.js';
import { escapeControl } from './core/escape.js';
import { redact } from './core/secrets.js';
import type { Command, CommandContext } from './core/run-context.js';

declare const __CLOUDGATE_VERSION__: string;

type Options = NonNullable<ParseArgsConfig['options']>;
const s = { type: 'string' } as const;
const b = { type: 'boolean' } as const;
const many = { type: 'string', multiple: true } as const;

const NETWORK: Options = {
  'ca-file': s,
  insecure: b,
  'allow-http': b,
  timeout: s,
  verbose: b,
  config: s,
};

/** Ansible Vault passwords (also ANSIBLE_VAULT_PASSWORD_FILE): vaulted values are read, secrets written vaulted. */
const VAULT: Options = {
  'vault-password-file': many,
  'vault-id': many,
};

interface CommandSpec {
  summary: string;
  usage: string;
  options: Options;
  load: () => Promise<{ run: Command }>;
}

// Each command is its own lazily loaded chunk: `--version` and `--help` load none of them.
const COMMANDS: Record<string, CommandSpec> = {
  setup: {
    summary: 'Ask about certificates and write the inventory (and a TLS Secret manifest)',
    usage: `cloudgate setup [--inventory PATH] [--answers FILE] [--yes] [--dry-run] [--plain]
                [--secret-manifest FILE] [--namespace NS]... [--fix-order] [--apply] [--ca-file PEM]
                [--vault-password-file FILE | --vault-id LABEL@FILE] [--names spec|platform]`,
    options: {
      inventory: s, answers: s, yes: b, 'dry-run': b, plain: b,
      'secret-manifest': s, namespace: many, 'fix-order': b, apply: b, 'ca-file': s,
      ...VAULT, names: s,
    },
    load: () => import('./commands/setup.js'),
  },
  doctor: {
    summary: 'Run live checks: inventory, certificates, sign-in chain, OIDC discovery, TLS, cluster',
    usage: `cloudgate doctor [--inventory PATH] [--config FILE] [--only GROUPS] [--json] [--verbose]
                 [--format text|json|junit|prometheus] [--output FILE] [--strict] [--timeout SECONDS] [--ca-file PEM] [--insecure] [--allow-http]
                 [--list-checks] [--certificate FILE --key FILE --domain D]
                 [--issuer-url URL] [--token-file FILE] [--endpoint HOST[:PORT]]... [--context NAME] [--probe-update]
                 [--vault-password-file FILE | --vault-id LABEL@FILE] [--names spec|platform]`,
    options: {
      ...NETWORK,
      inventory: s, only: s, json: b, strict: b, 'list-checks': b,
      certificate: many, key: s, domain: s,
      'issuer-url': s, 'token-file': s, audience: s,
      endpoint: many, context: s, project: s,
      format: s, output: s,
      ...VAULT,
      'probe-update': b,
      names: s,
    },
    load: () => import('./commands/doctor.js'),
  },
  serve: {
    summary: 'Run the doctor on an interval and serve its results as Prometheus metrics',
    usage: `cloudgate serve [--listen HOST:PORT] [--interval DURATION] [--only GROUPS] [--inventory PATH]
                [--config FILE] [--timeout SECONDS] [--ca-file PEM] [the doctor's other settings flags]`,
    options: {
      ...NETWORK,
      listen: s, interval: s, inventory: s, only: s,
      certificate: many, key: s, domain: s,
      'issuer-url': s, 'token-file': s, audience: s,
      endpoint: many, context: s, project: s,
      ...VAULT,
    },
    load: () => import('./commands/serve.js'),
  },
  regenerate: {
    summary: 'Re-ask the issuer, rewrite the inventory, delete the stale certificate secrets',
    usage: `cloudgate regenerate [--inventory PATH] [--answers FILE] [--yes] [--dry-run] [--context NAME] [--plain]
                     [--namespace NS]... [--wait [--wait-timeout SECONDS]] [--vault-password-file FILE | --vault-id LABEL@FILE]
                     [--names spec|platform]`,
    options: { inventory: s, answers: s, yes: b, 'dry-run': b, context: s, plain: b, namespace: many, wait: b, 'wait-timeout': s, ...VAULT, names: s },
    load: () => import('./commands/regenerate.js'),
  },
  oidc: {
    summary: 'Print or write what keyless DNS credentials (clusteroidc) need the operator to create',
    usage: `cloudgate oidc [--issuer-url URL] [--account ID] [--role-name NAME] [--out DIR] [--inventory PATH]
               [--partition P] [--audience A] [--thumbprint HEX] [--jwks-file FILE]
               [--namespace NS] [--service-account NAME] [--json]`,
    options: {
      ...NETWORK,
      'issuer-url': s, account: s, 'role-name': s, out: s, inventory: s,
      partition: s, audience: s, thumbprint: s, json: b, 'jwks-file': s,
      namespace: s, 'service-account': s,
    },
    load: () => import('./commands/oidc.js'),
  },
  token: {
    summary: 'Run the sign-in chain and print only the project-scoped token',
    usage: `cloudgate token [--project P] [--format value|env|json] [--config FILE] [--ca-file PEM]`,
    options: { ...NETWORK, project: s, format: s },
    load: () => import('./commands/token.js'),
  },
  render: {
    summary: 'Print the Kubernetes objects the platform creates from the inventory, checked against cert-manager\'s schema',
    usage: 'cloudgate render [--inventory PATH] [--json] [--names spec|platform]',
    options: { inventory: s, json: b, names: s },
    load: () => import('./commands/render.js'),
  },
  schema: {
    summary: 'Print the JSON Schema of the inventory variables (for editors)',
    usage: 'cloudgate schema [--names spec|platform]',
    options: { names: s },
    load: () => import('./commands/schema.js'),
  },
};

function version(): string {
  return typeof __CLOUDGATE_VERSION__ === 'string' ? __CLOUDGATE_VERSION__ : '0.0.0-dev';
}

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `cloudgate ${version()} — certificates and sign-in diagnostics for an OpenStack-on-Kubernetes cloud

Usage: cloudgate <command> [options]

Commands:
${rows.join('\n')}

Options:
  -h, --help     Show help (also: cloudgate <command> --help)
  -v, --version  Show the version

Exit codes: 0 success, 1 doctor found failures, 2 usage or input error (nothing written), 130 cancelled.
`;
}

export function isInteractive(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  // isatty(0) rather than process.stdin.isTTY: the latter builds the stdin stream just to ask.
  return isatty(0) && isatty(1) && !ci;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    process.stdout.write(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '-v' || name === '--version') {
    process.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const spec = COMMANDS[name];
  if (!spec) {
    return fail(new UsageError(`Unknown command "${name}".`, `Run "cloudgate --help" for the list of commands.`));
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${spec.summary}\n\nUsage: ${spec.usage}\n`);
    return EXIT.ok;
  }
  try {
    refuseSecretFlags(name, rest, spec.options);
    const parsed = parseArgs({ args: rest, options: spec.options, allowPositionals: true, strict: true });
    const ctx: CommandContext = {
      flags: parsed.values as CommandContext['flags'],
      positionals: parsed.positionals,
      interactive: isInteractive(),
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      cwd: process.cwd(),
    };
    const { run } = await spec.load();
    return await run(ctx);
  } catch (error) {
    return fail(error, spec.usage);
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
  if (error instanceof UsageError || isParseArgsError(error)) {
    const e = error as Error & { advice?: string };
    printError(`error: ${e.message}`);
    if (e.advice) printError(`  ${e.advice}`);
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
    const flag = arg.slice(2).split('=')[0]!;
    if (flag in options || !SECRET_NAME.test(flag) || /[-_]file$/i.test(flag)) continue;
    throw new UsageError(`--${flag} is refused: secrets are never taken from flags (the shell history and the process list would show them).`, secretAdvice(command, flag));
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

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof TypeError && typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
