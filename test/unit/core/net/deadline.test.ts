import { describe, expect, it } from 'vitest';
import { withDeadline, type Deadline } from '../../../../src/core/net/deadline.js';

function deadline(timeoutMs: number, signal?: AbortSignal): Deadline & { released: number } {
  const d = {
    timeoutMs,
    signal,
    released: 0,
    timedOut: () => new Error('timed out'),
    aborted: () => new Error('aborted'),
    release: () => void d.released++,
  };
  return d;
}

describe('withDeadline', () => {
  it('settles with the first answer and releases once, whatever comes after', async () => {
    const d = deadline(1000);
    const value = await withDeadline<string>(d, (finish) => {
      finish(undefined, 'first');
      finish(undefined, 'second');
      finish(new Error('late'));
    });
    expect(value).toBe('first');
    expect(d.released).toBe(1);
  });

  it('fails with the timeout error when the exchange never answers', async () => {
    const d = deadline(20);
    await expect(withDeadline(d, () => undefined)).rejects.toThrow('timed out');
    expect(d.released).toBe(1);
  });

  it('fails with the abort error when the caller gives up, before or during the exchange', async () => {
    const before = deadline(1000, AbortSignal.abort());
    let started = false;
    await expect(withDeadline(before, () => void (started = true))).rejects.toThrow('aborted');
    expect(started).toBe(false);
    expect(before.released).toBe(1);

    const stop = new AbortController();
    const during = deadline(1000, stop.signal);
    const pending = withDeadline(during, () => queueMicrotask(() => stop.abort()));
    await expect(pending).rejects.toThrow('aborted');
    expect(during.released).toBe(1);
  });

  it('turns an exchange that throws into a failure, released', async () => {
    const d = deadline(1000);
    await expect(
      withDeadline(d, () => {
        throw new Error('no socket');
      }),
    ).rejects.toThrow('no socket');
    expect(d.released).toBe(1);
  });
});
