import { describe, expect, it } from 'vitest';
import { CONTROL, HOSTILE, hostileReport as report } from '../../../helpers/hostile-report.js';
import { renderJson } from '../../../../src/ui/text/json.js';

describe('JSON report', () => {
  it('escapes C1 controls too, and parses back to the same text', () => {
    const json = renderJson(report);
    expect(json).not.toMatch(CONTROL);
    expect(Buffer.from(json).includes(0x9b)).toBe(false);
    expect((JSON.parse(json) as { checks: { message: string }[] }).checks[0]!.message).toContain(HOSTILE);
  });
});
