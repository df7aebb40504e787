import { stringifyJson } from '../../core/escape.js';
import { redactValue } from '../../core/secrets.js';
import type { CheckOutcome, DoctorReport } from '../../core/doctor/types.js';

/**
 * The `--json` document (schema cloudgate.doctor/v1, described in docs/doctor-output.md), redacted, one
 * object, newline-terminated. A check's typed facts are its documented `details`.
 */
export function renderJson(report: DoctorReport): string {
  return stringifyJson(redactValue({ ...report, checks: report.checks.map(asJson) }), 2) + '\n';
}

function asJson({
  facts,
  parts,
  reason,
  subject,
  certificates,
  stuck,
  tokenExpiresAt,
  ...check
}: CheckOutcome): object {
  return {
    ...check,
    ...(facts ? { details: facts } : {}),
    ...(parts ? { parts } : {}),
    ...(reason ? { reason } : {}),
    ...(subject ? { subject } : {}),
    ...(certificates ? { certificates } : {}),
    ...(stuck ? { stuck } : {}),
    ...(tokenExpiresAt ? { tokenExpiresAt } : {}),
  };
}
