/**
 * What must not outlive a run: child process groups, the inventory lock, temp files. Each is
 * registered while it exists and undone when the process exits, also when it is stopped by SIGTERM,
 * SIGHUP or SIGINT: the default action of a signal would end the process without running any 'exit'
 * handler, leaving the lock, the temps and the children (which run in their own process groups, out of
 * reach of a terminal's Ctrl+C) behind. Such a signal is turned into exit 128 + its number (143 for
 * SIGTERM, 130 for SIGINT, 129 for SIGHUP), after the cleanups.
 *
 * When someone else handles the signal (doctor's Ctrl+C reports what finished, serve stops cleanly),
 * only the cleanups marked `onSignal` (the children) run at once; the rest is undone as that handler
 * unwinds, or at exit.
 */
import { constants } from 'node:os';

interface Cleanup {
  run: () => void;
  onSignal: boolean;
}

const registered = new Set<Cleanup>();
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
let watching = false;

function runCleanups(onlyOnSignal: boolean): void {
  for (const cleanup of [...registered]) {
    if (onlyOnSignal && !cleanup.onSignal) continue;
    registered.delete(cleanup);
    try {
      cleanup.run();
    } catch {
      // A cleanup that fails must not keep the others from running.
    }
  }
}

function onExit(): void {
  runCleanups(false);
}

function onSignal(signal: NodeJS.Signals): void {
  runCleanups(true);
  // Ours runs first (prepended), so another handler of this signal is still counted here.
  if (process.listenerCount(signal) > 1) return;
  runCleanups(false);
  unwatch();
  process.exit(128 + (constants.signals[signal] ?? 15));
}

function watch(): void {
  if (watching) return;
  watching = true;
  process.on('exit', onExit);
  for (const s of SIGNALS) process.prependListener(s, onSignal);
}

function unwatch(): void {
  if (!watching) return;
  watching = false;
  for (const s of SIGNALS) process.off(s, onSignal);
  // 'exit' stays while anything is registered: process.exit() in onSignal still needs it.
  if (registered.size === 0) process.off('exit', onExit);
}

/**
 * Runs `cleanup` (synchronous: it may run in an 'exit' handler) when the process ends before the
 * returned function is called. `onSignal`: run it as soon as a stopping signal arrives, whoever
 * handles that signal (for child processes).
 */
export function cleanUpOnExit(cleanup: () => void, options: { onSignal?: boolean } = {}): () => void {
  const entry: Cleanup = { run: cleanup, onSignal: options.onSignal ?? false };
  registered.add(entry);
  watch();
  return () => {
    registered.delete(entry);
    if (registered.size === 0) {
      unwatch();
      process.off('exit', onExit);
    }
  };
}
