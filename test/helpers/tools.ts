/**
 * The outside programs some tests drive (kubectl, named, pebble, tmux, ...). `requireTool` answers
 * whether one is installed, for `describe.skipIf(!requireTool(...))`. Under CI a missing tool is a
 * failure, never a skip: the test file throws when it loads, naming the Debian package that .ci/run
 * installs. Outside CI the tests that need it are skipped and the reason is printed once.
 */
import { spawnSync } from 'node:child_process';

/** CI is set to something other than "", "0" or "false". */
export function underCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return Boolean(value) && value !== '0' && value !== 'false';
}

/** How to ask each tool whether it runs: arguments that succeed without side effects. */
const PROBES: Record<string, string[]> = {
  kubectl: ['version', '--client'],
  named: ['-v'],
  'tsig-keygen': ['-h'],
  pebble: ['-h'],
  tmux: ['-V'],
  openssl: ['version'],
  promtool: ['--version'],
  'ansible-inventory': ['--version'],
  zsh: ['--version'],
  fish: ['--version'],
};

/**
 * Whether `command` runs: found on PATH and started. Tools whose help exits non-zero (pebble,
 * tsig-keygen) count as present when they started at all; the others must exit 0.
 */
export function toolRuns(command: string, probe = PROBES[command] ?? ['--version']): boolean {
  const result = spawnSync(command, probe, { stdio: 'ignore', timeout: 10_000 });
  if (result.error) return false;
  return command === 'pebble' || command === 'tsig-keygen' ? true : result.status === 0;
}

export interface ToolOptions {
  /** The binary to run instead of `command` (e.g. $CLOUDGATE_KUBECTL). */
  binary?: string;
  env?: NodeJS.ProcessEnv;
  /** For tests of this helper: whether the tool runs, instead of asking the machine. */
  runs?: (binary: string) => boolean;
  warn?: (message: string) => void;
}

const warned = new Set<string>();

/** The message a missing tool gives, naming what installs it. */
export function missingToolMessage(command: string, debianPackage: string): string {
  return `${command} is not installed (Debian package ${debianPackage}; .ci/run installs it)`;
}

/**
 * True when `command` runs. When it does not: under CI throws (the test file fails); elsewhere warns
 * once and returns false, so that `describe.skipIf(!requireTool(...))` skips with the reason.
 */
export function requireTool(command: string, debianPackage: string, options: ToolOptions = {}): boolean {
  const binary = options.binary || command;
  const runs = options.runs ?? ((b: string) => toolRuns(b, PROBES[command]));
  if (runs(binary)) return true;
  const message = missingToolMessage(binary, debianPackage);
  if (underCI(options.env))
    throw new Error(`${message}. CI is set, so the tests that need it fail instead of being skipped.`);
  const warn = options.warn ?? ((m: string) => console.warn(m));
  if (!warned.has(binary) || options.warn) warn(`skipped: the tests that need ${binary}: ${message}.`);
  warned.add(binary);
  return false;
}

/** The suffix for a test title: empty when the tool is there, else why the tests are skipped. */
export function skipNote(present: boolean, command: string, debianPackage: string): string {
  return present ? '' : ` [skipped: ${missingToolMessage(command, debianPackage)}]`;
}
