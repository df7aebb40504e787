/**
 * The built binary in a real terminal: tmux gives it a pseudo-terminal, keys go in with send-keys
 * and the screen comes back with capture-pane. Each terminal has its own tmux server (reusing a
 * socket right after kill-server races its shutdown). CI is unset inside: the binary decides
 * interactivity by TTY and CI, whatever the environment of the test run.
 */
import { execFileSync } from 'node:child_process';
import { BIN } from './cli.js';

const SESSION = 'cloudgate';
let launches = 0;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface Terminal {
  /** The visible screen; with `escapes`, its colour and style codes too. */
  screen(escapes?: boolean): string;
  /** The screen once it shows `text`; fails with the screen after `timeoutMs`. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  send(...keys: string[]): void;
  kill(): void;
}

export interface LaunchOptions {
  cwd: string;
  size?: { x: number; y: number };
  /** Extra environment (NO_COLOR=1 unless `color`). */
  env?: Record<string, string>;
  color?: boolean;
}

/** Starts `cloudgate ARGS` in a new terminal; its exit code appears on screen as `EXIT=<code>`. */
export function launchCloudgate(args: string[], options: LaunchOptions): Terminal {
  const socket = `cloudgate-e2e-${process.pid}-${++launches}`;
  const tmux = (...a: string[]) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
  const env = Object.entries({ ...(options.color ? {} : { NO_COLOR: '1' }), ...options.env })
    .map(([k, v]) => `${k}=${shellQuote(v)}`)
    .join(' ');
  const unset = options.color ? '-u CI -u NO_COLOR' : '-u CI';
  const command = `cd ${shellQuote(options.cwd)} && env ${unset} ${env} ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}; echo EXIT=$?; sleep 600`;
  const size = options.size ?? { x: 80, y: 24 };
  tmux('new-session', '-d', '-s', SESSION, '-x', String(size.x), '-y', String(size.y), command);
  const screen = (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', SESSION);
  return {
    screen,
    async waitFor(text, timeoutMs = 15_000) {
      const start = Date.now();
      for (;;) {
        const s = screen();
        if (typeof text === 'string' ? s.includes(text) : text.test(s)) return s;
        if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${String(text)}; screen:\n${s}`);
        await sleep(50);
      }
    },
    send: (...keys) => void tmux('send-keys', '-t', SESSION, ...keys),
    kill() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
