/**
 * The doctor's run in the Prometheus text exposition format (version 0.0.4): what `cloudgate serve`
 * answers on /metrics and what `doctor --format prometheus` writes for the node exporter's textfile
 * collector. A pure function of the run: no clock read, no I/O.
 */
import { redact } from '../../core/secrets.js';
import { escapeControl } from '../../core/escape.js';
import type { CheckOutcome, DoctorReport, Status } from '../../core/doctor/types.js';

export interface MetricsRun {
  report: DoctorReport;
  /** When the run finished (token lifetimes given in seconds count from here). */
  finishedAt: Date;
  version: string;
}

interface Sample {
  labels: Record<string, string>;
  value: number;
}

interface Family {
  name: string;
  help: string;
  samples: Sample[];
}

const STATUSES: Status[] = ['ok', 'warn', 'fail', 'skip'];

export const METRIC_HELP: Record<string, string> = {
  cloudgate_check_status: 'Status of each doctor check in the last run: 1 for its current status, 0 for the others.',
  cloudgate_check_duration_seconds: 'How long each doctor check took in the last run.',
  cloudgate_certificate_expiry_timestamp_seconds: 'Expiry (notAfter, Unix time) of every certificate the last run saw.',
  cloudgate_signin_success: 'Whether the federated sign-in chain worked end to end in the last run (1) or not (0).',
  cloudgate_signin_step_duration_seconds: 'How long each step of the sign-in chain took in the last run.',
  cloudgate_token_expiry_timestamp_seconds: 'Expiry (Unix time) of each token the last run obtained, by the check that obtained it.',
  cloudgate_last_run_timestamp_seconds: 'When the last run finished (Unix time).',
  cloudgate_run_duration_seconds: 'How long the last run took.',
  cloudgate_build_info: 'The cloudgate version; always 1.',
};

export function renderPrometheus(run: MetricsRun): string {
  return render(families(run));
}

/** Before the first run completes: only what is known without one. */
export function renderBuildInfo(version: string): string {
  return render([buildInfo(version)]);
}

function families({ report, finishedAt, version }: MetricsRun): Family[] {
  const checks = report.checks;
  const signin = checks.filter((c) => c.group === 'signin' && c.status !== 'skip');
  const api = checks.find((c) => c.id === 'signin.api');
  return [
    family('cloudgate_check_status', checks.flatMap((c) =>
      STATUSES.map((status) => ({ labels: { group: c.group, id: c.id, status }, value: c.status === status ? 1 : 0 })))),
    family('cloudgate_check_duration_seconds', checks.map((c) => ({ labels: { group: c.group, id: c.id }, value: c.durationMs / 1000 }))),
    family('cloudgate_certificate_expiry_timestamp_seconds', certificateExpiries(checks)),
    // Only when the chain was actually tried: an unconfigured sign-in is all skips, not a failure.
    family('cloudgate_signin_success', signin.length === 0 ? [] : [{
      labels: {},
      value: signin.every((c) => c.status === 'ok' || c.status === 'warn') && (api?.status === 'ok' || api?.status === 'warn') ? 1 : 0,
    }]),
    family('cloudgate_signin_step_duration_seconds', signin.map((c) => ({ labels: { step: c.id.slice('signin.'.length) }, value: c.durationMs / 1000 }))),
    family('cloudgate_token_expiry_timestamp_seconds', tokenExpiries(checks)),
    family('cloudgate_last_run_timestamp_seconds', [{ labels: {}, value: finishedAt.getTime() / 1000 }]),
    family('cloudgate_run_duration_seconds', [{ labels: {}, value: report.durationMs / 1000 }]),
    buildInfo(version),
  ];
}

function family(name: string, samples: Sample[]): Family {
  return { name, help: METRIC_HELP[name], samples };
}

function buildInfo(version: string): Family {
  return family('cloudgate_build_info', [{ labels: { version }, value: 1 }]);
}

/**
 * One series per certificate the checks read (their `certificates` facts): labelled with where it
 * was read (a file's full path, `host:port`, `namespace/secret`) and its subject. The same
 * certificate read by several checks from one source is one series; an expired one stays.
 */
export function certificateExpiries(checks: CheckOutcome[]): Sample[] {
  const found = new Map<string, Sample>();
  for (const fact of checks.flatMap((c) => c.certificates ?? [])) {
    const time = Date.parse(fact.notAfter);
    if (!Number.isFinite(time)) continue;
    const labels = { source: fact.source, subject: fact.subject };
    found.set(JSON.stringify(labels), { labels, value: time / 1000 });
  }
  return [...found.values()];
}

/** Expiry of the tokens the sign-in steps and the discovery checks obtained; never the token itself. */
export function tokenExpiries(checks: CheckOutcome[]): Sample[] {
  const samples: Sample[] = [];
  for (const check of checks) {
    const time = check.tokenExpiresAt ? Date.parse(check.tokenExpiresAt) / 1000 : NaN;
    if (Number.isFinite(time)) samples.push({ labels: { token: check.id }, value: time });
  }
  return samples;
}

function render(list: Family[]): string {
  const lines: string[] = [];
  for (const f of list) {
    lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} gauge`);
    for (const s of f.samples) lines.push(`${f.name}${labelText(s.labels)} ${formatValue(s.value)}`);
  }
  return lines.join('\n') + '\n';
}

function labelText(labels: Record<string, string>): string {
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
