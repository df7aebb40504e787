/**
 * What the exporter serves: the outputs of the last completed run, rendered once when it completes,
 * so a scrape is a copy of a string (and never starts a run).
 */
import type { DoctorReport } from '../core/doctor/types.js';
import type { MetricFamily } from '../core/doctor/metrics.js';
import { renderJson } from '../ui/text/json.js';
import { renderBuildInfo, renderPrometheus } from '../ui/text/prometheus.js';

export interface LastRun {
  metrics(): string;
  /** The doctor's JSON of the last run; undefined before the first one completes. */
  checks(): string | undefined;
  finishedAt(): Date | undefined;
  record(report: DoctorReport, finishedAt: Date): void;
}

/** `areaMetrics`: the areas' own families (core/areas/index.ts), written after the doctor's. */
export function createLastRun(version: string, areaMetrics: readonly MetricFamily[]): LastRun {
  let metrics = renderBuildInfo(version);
  let checks: string | undefined;
  let finished: Date | undefined;
  return {
    metrics: () => metrics,
    checks: () => checks,
    finishedAt: () => finished,
    record(report, finishedAt) {
      metrics = renderPrometheus({ report, finishedAt, version, areaMetrics });
      checks = renderJson(report);
      finished = finishedAt;
    },
  };
}
