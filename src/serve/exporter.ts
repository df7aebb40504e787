/**
 * `cloudgate serve`: the scheduler runs the doctor's checks, the last completed run is rendered
 * once, and the HTTP server hands out those renderings.
 */
import { setFlagsFromString } from 'node:v8';
import { runChecks, type RunOptions } from '../core/doctor/runner.js';
import { statusCounts } from '../core/doctor/status.js';
import type { Check, Status } from '../core/doctor/types.js';
import type { MetricFamily } from '../core/doctor/metrics.js';
import { forgetSecretsSince, redact, secretsMark } from '../core/secrets.js';
import { startHttpServer } from './http.js';
import { createLastRun } from './last-run.js';
import { startScheduler } from './scheduler.js';

export interface ExporterOptions {
  host: string;
  port: number;
  intervalMs: number;
  version: string;
  /** The areas' own metric families, written after the doctor's. */
  areaMetrics: readonly MetricFamily[];
  /** The checks of one run, built afresh each time (an edited inventory is picked up). */
  provide(): Promise<Check[]>;
  /** Timeouts and the overall deadline of each run: the doctor's. */
  runOptions: RunOptions;
  log(line: string): void;
}

export interface Exporter {
  address: string;
  runs(): number;
  stop(): Promise<void>;
}

export async function startExporter(options: ExporterOptions): Promise<Exporter> {
  // No optimising compiler in this long-lived process: each function that a run calls once or twice
  // becomes hot after hundreds of runs, so its machine code kept the heap growing by ~0.7 KB per run
  // after run 300 and +13% by run 1,000 (docs/exporter.md). A run waits on the network; what it
  // computes is done by native code (TLS, X.509, hashing), which this does not affect. V8 has two of
  // them since Node 22: TurboFan (--opt) and Maglev, which alone grew the heap ~2 KB per run on Node 26.
  setFlagsFromString('--no-opt');
  setFlagsFromString('--no-maglev');
  const lastRun = createLastRun(options.version, options.areaMetrics);
  let runs = 0;
  let running = () => false;
  const server = await startHttpServer({
    host: options.host,
    port: options.port,
    lastRun,
    runs: () => runs,
    running: () => running(),
  });
  let previous = '';
  const scheduler = startScheduler({
    intervalMs: options.intervalMs,
    async run(signal) {
      // Each run asks the cluster again (its availability lives in that run's state): one that was down may be back.
      const startedAt = performance.now();
      const checks = await options.provide();
      const mark = secretsMark();
      try {
        const report = await runChecks(checks, { ...options.runOptions, signal, startedAt });
        if (signal.aborted) return;
        lastRun.record(report, new Date());
        runs++;
        const summary = summaryLine(report.summary);
        if (summary !== previous) options.log(`run ${runs}: ${summary} (${report.durationMs} ms)`);
        previous = summary;
      } finally {
        // The tokens this run obtained are in no output any more (the outputs are rendered above).
        forgetSecretsSince(mark);
      }
    },
    onError: (error) =>
      options.log(
        redact(
          `run failed, the previous results stay served: ${error instanceof Error ? error.message : String(error)}`,
        ),
      ),
  });
  running = () => scheduler.busy();
  return {
    address: server.address,
    runs: () => runs,
    async stop() {
      await Promise.all([server.close(), scheduler.stop()]);
    },
  };
}

function summaryLine(summary: Record<Status, number>): string {
  return statusCounts(summary, true);
}
