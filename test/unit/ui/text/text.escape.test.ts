import { describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../../../src/core/doctor/types.js';
import { renderText } from '../../../../src/ui/text/text.js';

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

describe('text report', () => {
  it('escapes every control character of titles, messages, advice and details', () => {
    const text = renderText(report, { verbose: true, color: false });
    expect(text).not.toMatch(CONTROL);
    expect(text).toContain('\\x1b[2J\\x1b]0;owned\\x07\\x9b31m');
  });

  it('keeps a quoted newline from faking a line of its own', () => {
    const text = renderText(report, { verbose: false, color: false });
    expect(text.split('\n').filter((l) => l.includes('Fake check'))).toEqual([expect.stringContaining('issuer is https://x')]);
  });

  it('still paints its own colours', () => {
    expect(renderText(report, { verbose: false, color: true })).toContain('\x1b[31m');
  });
});
