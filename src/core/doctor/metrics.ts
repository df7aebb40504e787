/**
 * The metric families of a doctor run, as data: the doctor's own (every check's status and duration,
 * the certificates and tokens the checks read, the run itself) and each area's, which the area declares
 * over its own group's outcomes (the sign-in chain's success and step durations). The Prometheus
 * renderer only writes them out; it knows no group and no check.
 */
import { STATUSES } from './status.js';
import type { CheckOutcome, DoctorReport } from './types.js';

export interface Sample {
  labels: Readonly<Record<string, string>>;
  value: number;
}

/** What a family's samples are computed from. */
export interface MetricsRun {
  report: DoctorReport;
  /** When the run finished (token lifetimes given in seconds count from here). */
  finishedAt: Date;
  version: string;
}

export interface MetricFamily {
  name: string;
  help: string;
  samples(run: MetricsRun): Sample[];
}

/** A family an area declares: its samples come from the outcomes of the area's own group only. */
export interface AreaMetric {
  name: string;
  help: string;
  samples(outcomes: readonly CheckOutcome[]): Sample[];
}

/** The area's families over the run's outcomes of its group. */
export function areaFamilies(group: string, metrics: readonly AreaMetric[]): MetricFamily[] {
  return metrics.map((m) => ({
    name: m.name,
    help: m.help,
    samples: (run) => m.samples(run.report.checks.filter((c) => c.group === group)),
  }));
}

const once = (value: number): Sample[] => [{ labels: {}, value }];

/** `cloudgate_build_info`: known before any run. */
export const BUILD_INFO: MetricFamily = {
  name: 'cloudgate_build_info',
  help: 'The cloudgate version; always 1.',
  samples: (run) => [{ labels: { version: run.version }, value: 1 }],
};

/** The doctor's own families, whatever the groups of the run. */
export const DOCTOR_METRICS: readonly MetricFamily[] = [
  {
    name: 'cloudgate_check_status',
    help: 'Status of each doctor check in the last run: 1 for its current status, 0 for the others.',
    samples: ({ report }) =>
      report.checks.flatMap((c) =>
        STATUSES.map((status) => ({
          labels: { group: c.group, id: c.id, status },
          value: c.status === status ? 1 : 0,
        })),
      ),
  },
  {
    name: 'cloudgate_check_duration_seconds',
    help: 'How long each doctor check took in the last run.',
    samples: ({ report }) =>
      report.checks.map((c) => ({ labels: { group: c.group, id: c.id }, value: c.durationMs / 1000 })),
  },
  {
    name: 'cloudgate_certificate_expiry_timestamp_seconds',
    help: 'Expiry (notAfter, Unix time) of every certificate the last run saw.',
    samples: ({ report }) => certificateExpiries(report.checks),
  },
  {
    name: 'cloudgate_token_expiry_timestamp_seconds',
    help: 'Expiry (Unix time) of each token the last run obtained, by the check that obtained it.',
    samples: ({ report }) => tokenExpiries(report.checks),
  },
  {
    name: 'cloudgate_last_run_timestamp_seconds',
    help: 'When the last run finished (Unix time).',
    samples: ({ finishedAt }) => once(finishedAt.getTime() / 1000),
  },
  {
    name: 'cloudgate_run_duration_seconds',
    help: 'How long the last run took.',
    samples: ({ report }) => once(report.durationMs / 1000),
  },
];

/**
 * One series per certificate the checks read (their `certificates` facts): labelled with where it
 * was read (a file's full path, `host:port`, `namespace/secret`) and its subject. The same
 * certificate read by several checks from one source is one series; an expired one stays.
 */
export function certificateExpiries(checks: readonly CheckOutcome[]): Sample[] {
  const found = new Map<string, Sample>();
  for (const fact of checks.flatMap((c) => c.certificates ?? [])) {
    const time = Date.parse(fact.notAfter);
    if (!Number.isFinite(time)) continue;
    const labels = { source: fact.source, subject: fact.subject };
    found.set(JSON.stringify(labels), { labels, value: time / 1000 });
  }
  return [...found.values()];
}

/** Expiry of the tokens the checks obtained (`tokenExpiresAt`); never the token itself. */
export function tokenExpiries(checks: readonly CheckOutcome[]): Sample[] {
  const samples: Sample[] = [];
  for (const check of checks) {
    const time = check.tokenExpiresAt ? Date.parse(check.tokenExpiresAt) / 1000 : NaN;
    if (Number.isFinite(time)) samples.push({ labels: { token: check.id }, value: time });
  }
  return samples;
}
