import { describe, expect, it } from 'vitest';
import { interruptedVerdict, statusCounts, summarize } from '../../../../src/core/doctor/status.js';

describe('status rules', () => {
  const outcomes = [{ status: 'ok' as const }, { status: 'ok' as const }, { status: 'fail' as const }];

  it('counts each status, and lists only those present unless all are asked for', () => {
    expect(summarize(outcomes)).toEqual({ ok: 2, warn: 0, fail: 1, skip: 0 });
    expect(statusCounts(summarize(outcomes))).toBe('2 ok, 1 fail');
    expect(statusCounts(summarize(outcomes), true)).toBe('2 ok, 0 warn, 1 fail, 0 skip');
  });

  it('says how many checks an interruption left not run', () => {
    expect(interruptedVerdict(1)).toContain('1 check was not run');
    expect(interruptedVerdict(3)).toContain('3 checks were not run');
  });
});
