import { stringifyJson } from '../../core/escape.js';
import { redactValue } from '../../core/secrets.js';
import type { DoctorReport } from '../../core/doctor/types.js';

/** The `--json` document (schema cloudgate.doctor/v1, described in README.md), redacted, one object, newline-terminated. */
export function renderJson(report: DoctorReport): string {
  return stringifyJson(redactValue(report), 2) + '\n';
}
