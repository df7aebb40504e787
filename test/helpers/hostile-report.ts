/** A doctor report whose every text field carries terminal control sequences (clear screen, retitle, C1 CSI). */
import type { DoctorReport } from '../../src/core/doctor/types.js';

export const HOSTILE = '\x1b[2J\x1b]0;owned\x07\u009b31m';

export const hostileReport = {
  checks: [
    {
      id: 'discovery.issuer',
      group: 'discovery',
      title: `Issuer${HOSTILE}`,
      status: 'fail',
      message: `issuer is https://x${HOSTILE}\n    ✓ Fake check: ok`,
      advice: `Fix ${HOSTILE}`,
      facts: { issuer: `https://x${HOSTILE}`, list: [HOSTILE] },
      durationMs: 1,
    },
  ],
} as unknown as DoctorReport;

/** Any control character but tab and line feed, C1 included. */
export const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
