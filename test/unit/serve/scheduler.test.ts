import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextDelay, startScheduler } from '../../../src/serve/scheduler.js';

// Fake clocks: time moves only when the test advances it, so every start time below is exact.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduler', () => {
  it('waits the interval give or take the jitter', () => {
    expect(nextDelay(1000, 0.1, () => 0)).toBe(900);
    expect(nextDelay(1000, 0.1, () => 0.5)).toBe(1000);
    expect(nextDelay(1000, 0.1, () => 0.999999)).toBeCloseTo(1100, 1);
  });

  it('runs at once, then never two runs at the same time, even when a run outlasts the interval', async () => {
    let running = 0;
    let most = 0;
    const starts: number[] = [];
    const t0 = performance.now();
    const scheduler = startScheduler({
      intervalMs: 20,
      jitter: 0,
      async run() {
        starts.push(performance.now() - t0);
        running++;
        most = Math.max(most, running);
        await sleep(50);
        running--;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(starts).toEqual([0]); // the first run starts at once, not after an interval
    await vi.advanceTimersByTimeAsync(235);
    // Each run takes 50 ms, longer than the 20 ms interval: the next starts when the last ends (a
    // timer of 0 ms fires after 1 ms, as in Node).
    expect(starts).toEqual([0, 51, 102, 153, 204]);
    const stopping = scheduler.stop();
    await vi.advanceTimersByTimeAsync(50); // the run under way ignores the abort and ends at 254
    await stopping;
    expect(most).toBe(1);
    expect(scheduler.runs()).toBe(5);
  });

  it('keeps the interval from one start to the next when runs are short', async () => {
    const starts: number[] = [];
    const t0 = performance.now();
    const scheduler = startScheduler({
      intervalMs: 20,
      jitter: 0,
      async run() {
        starts.push(performance.now() - t0);
        await sleep(5);
      },
    });
    await vi.advanceTimersByTimeAsync(65);
    expect(starts).toEqual([0, 20, 40, 60]);
    const stopping = scheduler.stop();
    await vi.advanceTimersByTimeAsync(5);
    await stopping;
  });

  it('stop aborts the current run, waits for it, and starts no other', async () => {
    let aborted = false;
    let runs = 0;
    const scheduler = startScheduler({
      intervalMs: 10,
      run: (signal) =>
        new Promise<void>((resolve) => {
          runs++;
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    });
    await vi.advanceTimersByTimeAsync(20);
    expect(scheduler.busy()).toBe(true);
    await scheduler.stop();
    expect(aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0); // nothing is left that could start a run
    await vi.advanceTimersByTimeAsync(40);
    expect(runs).toBe(1);
    expect(scheduler.busy()).toBe(false);
  });

  it('a run that throws is reported and the next run still comes, one interval later', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const scheduler = startScheduler({
      intervalMs: 10,
      jitter: 0,
      async run() {
        runs++;
        if (runs === 1) throw new Error('boom');
      },
      onError: (e) => errors.push(e),
    });
    await vi.advanceTimersByTimeAsync(9);
    expect(runs).toBe(1);
    expect((errors[0] as Error).message).toBe('boom');
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(2);
    await scheduler.stop();
    expect(errors).toHaveLength(1);
  });
});
