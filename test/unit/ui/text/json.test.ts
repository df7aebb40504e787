import { describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../../src/core/doctor/types.js';
import { renderJson } from '../../../../src/ui/text/json.js';

const HOSTILE = '\x1b[2J\x1b]0;owned\x07\u009b31m';

const report = {
  checks: [
    {
      id: 'discovery.issuer',
      group: 'discovery',
      title: `Issuer${HOSTILE}`,
      status: 'fail',
      message: `issuer is https://x${HOSTILE}\n    ✓ Fake check: ok`,
      advice: `Fix ${HOSTILE}`,
      details: { issuer: `https://x${HOSTILE}`, list: [HOSTILE] },
      durationMs: 1,
    },
  ],
} as unknown as DoctorReport;

const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('JSON report', () => {
  it('escapes C1 controls too, and parses back to the same text', () => {
    const json = renderJson(report);
    expect(json).not.toMatch(CONTROL);
    expect(Buffer.from(json).includes(0x9b)).toBe(false);
    expect((JSON.parse(json) as { checks: { message: string }[] }).checks[0]!.message).toContain(HOSTILE);
  });
});
