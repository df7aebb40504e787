import { PassThrough, Writable } from 'node:stream';
import { stripAnsi } from './ink.js';
import { waitUntil } from './wait.js';

/**
 * In-memory streams for a plain (line-by-line) front-end: `send(waitFor, keys)` types `keys` once the
 * output shows `waitFor` (then marks that text seen, so the next wait needs a new prompt).
 */
export function plainIo() {
  const input = new PassThrough();
  let text = '';
  const output = new Writable({
    write(chunk: Buffer, _enc, next) {
      text += chunk.toString();
      next();
    },
  });
  output.end = function end(this: Writable) {
    return this;
  } as typeof output.end;
  const seen = () => stripAnsi(text);
  return {
    input,
    output,
    seen,
    async send(waitFor: string, keys: string) {
      await waitUntil(`"${waitFor}"`, () => seen().includes(waitFor), { timeoutMs: 5000, lastSeen: seen });
      text = text.replace(new RegExp(waitFor.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), '<seen>');
      input.write(keys);
      await waitUntil('the keys to be read', () => input.readableLength === 0, { lastSeen: seen });
    },
  };
}
