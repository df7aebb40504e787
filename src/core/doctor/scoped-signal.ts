/**
 * An abort signal for one run or one check: it aborts when its parent does or when its time is up,
 * and `release()` (called when the run or check ends) clears the timer and takes its listener off the
 * parent. `AbortSignal.any`/`AbortSignal.timeout` cannot be let go of that way: Node keeps a composite
 * signal that has an abort listener (and its listener's closure, with the whole run) until one of its
 * sources aborts, which for a check that finished in time is never, so `serve` grew at every run.
 */
import { setMaxListeners } from 'node:events';

export interface ScopedSignal {
  signal: AbortSignal;
  /** Whether it aborted because its own time was up (not because the parent aborted). */
  timedOut(): boolean;
  release(): void;
}

export function scopedSignal(parent: AbortSignal | undefined, timeoutMs: number): ScopedSignal {
  const controller = new AbortController();
  // A run's signal has one listener per check running (each taken off when it ends): no leak to warn of.
  setMaxListeners(0, controller.signal);
  let expired = false;
  const onParentAbort = () => controller.abort(parent!.reason);
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`Not finished within ${timeoutMs} ms.`, 'TimeoutError'));
  }, timeoutMs);
  // Like AbortSignal.timeout: a pending deadline alone does not keep the process alive.
  timer.unref();
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    release() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}
