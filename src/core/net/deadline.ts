/**
 * One exchange over a socket that must end by a deadline or when the caller gives up: the promise
 * settles once, with the first of the exchange's own answer, the timeout, or the abort; the sockets
 * are released exactly once, whichever it was.
 */
export interface Deadline {
  timeoutMs: number;
  signal?: AbortSignal;
  /** The error when the time is up (asked only then, so it may say how far the exchange got). */
  timedOut(): Error;
  /** The error when the caller's signal aborts (also when it already has). */
  aborted(): Error;
  /** Closes what the exchange opened; runs once, after it settled. */
  release(): void;
}

export function withDeadline<T>(
  deadline: Deadline,
  exchange: (finish: (error: Error | undefined, value?: T) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    // Set below, once the abort listener is in place; cleared by finish whichever comes first.
    // eslint-disable-next-line prefer-const -- finish (declared before it) clears it
    let timer: NodeJS.Timeout | undefined;
    const finish = (error: Error | undefined, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      deadline.signal?.removeEventListener('abort', onAbort);
      deadline.release();
      if (error) reject(error);
      else resolve(value as T); // no error: the exchange passed its answer
    };
    const onAbort = () => finish(deadline.aborted());
    if (deadline.signal?.aborted) return onAbort();
    deadline.signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => finish(deadline.timedOut()), deadline.timeoutMs);
    try {
      exchange(finish);
    } catch (error) {
      finish(error as Error); // what the exchange throws is Node's or our own Error
    }
  });
}
