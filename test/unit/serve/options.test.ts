import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/core/errors.js';
import { parseInterval, parseListen } from '../../../src/serve/options.js';

describe('serve options', () => {
  it('--listen takes HOST:PORT, [IPv6]:PORT and :PORT (all interfaces)', () => {
    expect(parseListen('127.0.0.1:9464')).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(parseListen('[::1]:0')).toEqual({ host: '::1', port: 0 });
    expect(parseListen(':9464')).toEqual({ host: '0.0.0.0', port: 9464 });
    for (const bad of ['9464', 'host', 'h:70000', 'h:-1', '::1:9464', 'h:9x'])
      expect(() => parseListen(bad)).toThrow(UsageError);
  });

  it('--interval takes durations from 1s to 24h', () => {
    expect(parseInterval('5m')).toBe(300_000);
    expect(parseInterval('1m30s')).toBe(90_000);
    expect(parseInterval('1s')).toBe(1000);
    expect(parseInterval('90')).toBe(90_000);
    expect(parseInterval('24h')).toBe(86_400_000);
    for (const bad of ['0s', '500ms', '25h', '5 m', 'often', '5mm', ''])
      expect(() => parseInterval(bad)).toThrow(UsageError);
  });
});
