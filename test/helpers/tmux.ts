/**
 * The built binary in a real terminal: tmux gives it a pseudo-terminal, keys go in with send-keys
 * and the screen comes back with capture-pane. Each terminal has its own tmux server (reusing a
 * socket right after kill-server races its shutdown). CI is unset inside: the binary decides
 * interactivity by TTY and CI, whatever the environment of the test run.
 *
 * Nothing here sleeps for a fixed time: `waitFor` returns once the screen shows the text, `press`
 * once the screen changed after the keys (the program handled them), and both fail with the screen
 * at their deadline. A screen seen drawn is a screen whose input handlers are attached: Ink draws in
 * the same turn as it commits, and React runs the effects that attach them right after that turn,
 * before the program reads the next keys.
 */
import { execFileSync } from 'node:child_process';
import { BIN } from './cli.js';
import { missingToolMessage, toolRuns } from './tools.js';
import { waitUntil } from './wait.js';

const SESSION = 'cloudgate';
let launches = 0;
let tmuxChecked: boolean | undefined;

export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface Terminal {
  /** The visible screen; with `escapes`, its colour and style codes too. */
  screen(escapes?: boolean): string;
  /** The screen once it shows `text`; fails with the screen after `timeoutMs`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  send(...keys: string[]): void;
  /** Sends the keys and waits until the screen changes: the program handled them. */
  press(...keys: string[]): Promise<string>;
  kill(): void;
}

export interface LaunchOptions {
  cwd: string;
  size?: { x: number; y: number };
  /** Extra environment (NO_COLOR=1 unless `color`). */
  env?: Record<string, string>;
  color?: boolean;
  /** What runs cloudgate: Node and the launcher by default, or the single executable. */
  program?: string[];
}

/** Starts `cloudgate ARGS` in a new terminal; its exit code appears on screen as `EXIT=<code>`. */
export function launchCloudgate(args: string[], options: LaunchOptions): Terminal {
  tmuxChecked ??= toolRuns('tmux');
  if (!tmuxChecked) throw new Error(`${missingToolMessage('tmux', 'tmux')}: the terminal tests need it.`);
  const socket = `cloudgate-e2e-${process.pid}-${++launches}`;
  const tmux = (...a: string[]) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
  const env = Object.entries({ ...(options.color ? {} : { NO_COLOR: '1' }), ...options.env })
    .map(([k, v]) => `${k}=${shellQuote(v)}`)
    .join(' ');
  const unset = options.color ? '-u CI -u NO_COLOR' : '-u CI';
  const program = (options.program ?? [process.execPath, BIN]).map(shellQuote).join(' ');
  const command = `cd ${shellQuote(options.cwd)} && env ${unset} ${env} ${program} ${args.map(shellQuote).join(' ')}; echo EXIT=$?; sleep 600`;
  const size = options.size ?? { x: 80, y: 24 };
  tmux('new-session', '-d', '-s', SESSION, '-x', String(size.x), '-y', String(size.y), command);
  const send = (...keys: string[]) => void tmux('send-keys', '-t', SESSION, ...keys);
  const screen = (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', SESSION);
  return {
    screen,
    waitFor: (text, timeoutMs = 15_000) =>
      waitUntil(
        `the screen to show ${String(text)}`,
        () => {
          const s = screen();
          return (typeof text === 'string' ? s.includes(text) : text.test(s)) && s;
        },
        { timeoutMs, intervalMs: 20, lastSeen: screen },
      ),
    send,
    async press(...keys) {
      const before = screen();
      send(...keys);
      return waitUntil(
        `the screen to change after ${keys.join(' ')}`,
        () => {
          const s = screen();
          return s !== before && s;
        },
        { timeoutMs: 15_000, intervalMs: 20, lastSeen: screen },
      );
    },
    kill() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
