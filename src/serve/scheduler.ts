/**
 * Runs a task at start and then every interval (± jitter, so the exporters of many regions do not
 * hit shared services in step). A run starts only after the previous one finished: a run longer
 * than the interval delays the next, it never overlaps it.
 */
export interface SchedulerOptions {
  intervalMs: number;
  /** Fraction of the interval each wait may differ by, both ways (default 0.1). */
  jitter?: number;
  run(signal: AbortSignal): Promise<void>;
  onError?(error: unknown): void;
  /** For tests: a source of numbers in [0, 1). */
  random?: () => number;
}

export interface Scheduler {
  /** Number of runs finished so far. */
  runs(): number;
  /** Whether a run is under way. */
  busy(): boolean;
  /** No new run starts; the current one is aborted and awaited. */
  stop(): Promise<void>;
}

export function nextDelay(intervalMs: number, jitter: number, random: () => number): number {
  return Math.max(0, intervalMs * (1 + jitter * (2 * random() - 1)));
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const controller = new AbortController();
  const random = options.random ?? Math.random;
  const jitter = options.jitter ?? 0.1;
  let finished = 0;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;

  const tick = () => {
    if (controller.signal.aborted) return;
    const started = performance.now();
    current = Promise.resolve()
      .then(() => options.run(controller.signal))
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        current = undefined;
        finished++;
        if (controller.signal.aborted) return;
        const wait = nextDelay(options.intervalMs, jitter, random) - (performance.now() - started);
        timer = setTimeout(tick, Math.max(0, wait));
      });
  };
  tick();

  return {
    runs: () => finished,
    busy: () => current !== undefined,
    async stop() {
      controller.abort();
      clearTimeout(timer);
      await current;
    },
  };
}
