/**
 * The doctor's run in the Prometheus text exposition format (version 0.0.4): what `cloudgate serve`
 * answers on /metrics and what `doctor --format prometheus` writes for the node exporter's textfile
 * collector. It writes the families it is given (the doctor's own and each area's: core/doctor/metrics.ts),
 * knowing no group and no check. A pure function of the run: no clock read, no I/O.
 */
import { redact } from '../../core/secrets.js';
import { escapeControl } from '../../core/escape.js';
import {
  BUILD_INFO,
  DOCTOR_METRICS,
  type MetricFamily,
  type MetricsRun,
  type Sample,
} from '../../core/doctor/metrics.js';

export interface PrometheusRun extends MetricsRun {
  /** The areas' own families (core/areas/index.ts: AREA_METRICS). */
  areaMetrics: readonly MetricFamily[];
}

export function renderPrometheus(run: PrometheusRun): string {
  return render([...DOCTOR_METRICS, ...run.areaMetrics, BUILD_INFO].map((f) => ({ ...f, values: f.samples(run) })));
}

/** Before the first run completes: only what is known without one. */
export function renderBuildInfo(version: string): string {
  return render([{ ...BUILD_INFO, values: [{ labels: { version }, value: 1 }] }]);
}

function render(list: (Pick<MetricFamily, 'name' | 'help'> & { values: Sample[] })[]): string {
  const lines: string[] = [];
  for (const f of list) {
    lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} gauge`);
    for (const s of f.values) lines.push(`${f.name}${labelText(s.labels)} ${formatValue(s.value)}`);
  }
  return lines.join('\n') + '\n';
}

function labelText(labels: Readonly<Record<string, string>>): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${escapeLabelValue(escapeControl(redact(v)))}"`).join(',')}}`;
}

/**
 * The exposition format's label escapes: backslash, double quote and line feed. The label values that
 * come from outside (a file name, a subject) are shown with their control and bidi characters as codes
 * first (escape.ts): an ESC from a file name would act on the terminal of whoever reads the metrics.
 */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return String(value);
}
