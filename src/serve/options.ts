/** `serve`'s own flags, checked before anything listens (a bad one is exit 2). */
import { parseHostPort } from '../core/config/formats.js';
import { UsageError } from '../core/errors.js';

export const DEFAULT_LISTEN = '127.0.0.1:9464';
export const DEFAULT_INTERVAL = '5m';
const MIN_INTERVAL_MS = 1000;
const MAX_INTERVAL_MS = 24 * 3600 * 1000;

export function parseListen(value: string): { host: string; port: number } {
  const parsed = parseHostPort(value, { emptyHost: '0.0.0.0', lowestPort: 0 });
  if (!parsed.ok) {
    throw new UsageError(
      `--listen must be HOST:PORT (e.g. 127.0.0.1:9464, 0.0.0.0:9464 or [::]:9464), not "${value}".`,
    );
  }
  return { host: parsed.host, port: parsed.port };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `30s`, `5m`, `1h`, `1m30s` or plain seconds; 1 s to 24 h. */
export function parseInterval(value: string): number {
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
  else if (parts.length && parts.map((p) => p[0]).join('') === value)
    ms = parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]], 0);
  else throw new UsageError(`--interval must be a duration such as 30s, 5m or 1h, not "${value}".`);
  if (ms < MIN_INTERVAL_MS || ms > MAX_INTERVAL_MS) {
    throw new UsageError(`--interval must be between 1s and 24h, not "${value}".`);
  }
  return ms;
}
