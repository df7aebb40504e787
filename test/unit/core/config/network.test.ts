import { describe, expect, it } from 'vitest';
import { parseTimeout } from '../../../../src/core/config/network.js';
import { UsageError } from '../../../../src/core/errors.js';

describe('parseTimeout', () => {
  it('defaults to 10 s', () => {
    expect(parseTimeout(undefined)).toBe(10_000);
  });

  it.each([
    ['0.1', 100],
    ['2', 2000],
    ['2.5', 2500],
    ['.5', 500],
    ['3600', 3_600_000],
  ])('reads %s as %d ms', (value, ms) => {
    expect(parseTimeout(value)).toBe(ms);
  });

  it.each(['400000', '0.000001', '0.09', '-1', 'abc', '', '0', 'Infinity', 'NaN', '1e3', '0x10', '3600.5', '10s'])(
    'refuses %j naming the range 0.1-3600',
    (value) => {
      let error: unknown;
      try {
        parseTimeout(value);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(/from 0\.1 to 3600/);
    },
  );
});
