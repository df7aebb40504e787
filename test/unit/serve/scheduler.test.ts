import { describe, expect, it } from 'vitest';
import { nextDelay, startScheduler } from '../../../src/serve/scheduler.js';

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
    const scheduler = startScheduler({
      intervalMs: 20,
      jitter: 0,
      async run() {
        starts.push(performance.now());
        running++;
        most = Math.max(most, running);
        await sleep(50);
        running--;
      },
    });
    await sleep(5);
    expect(starts.length).toBe(1); // the first run starts at once, not after an interval
    await sleep(235);
    await scheduler.stop();
    expect(most).toBe(1);
    expect(scheduler.runs()).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(49);
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
    await sleep(20);
    expect(scheduler.busy()).toBe(true);
    await scheduler.stop();
    expect(aborted).toBe(true);
    await sleep(40);
    expect(runs).toBe(1);
  });

  it('a run that throws is reported and the next run still comes', async () => {
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
    await sleep(60);
    await scheduler.stop();
    expect((errors[0] as Error).message).toBe('boom');
    expect(runs).toBeGreaterThanOrEqual(2);
  });
});
