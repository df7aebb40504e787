import { describe, expect, it } from 'vitest';
import { waitUntil, WaitTimeout } from '../../helpers/wait.js';

describe('waitUntil', () => {
  it('returns the first value the probe gives, as soon as it gives one', async () => {
    let calls = 0;
    await expect(
      waitUntil('the third call', () => (++calls === 3 ? 'ready' : undefined), { intervalMs: 1 }),
    ).resolves.toBe('ready');
    expect(calls).toBe(3);
  });

  it('fails at the deadline, naming what it waited for and the last state seen', async () => {
    const waiting = waitUntil('the port', () => false, {
      timeoutMs: 30,
      intervalMs: 5,
      lastSeen: () => 'screen: empty',
    });
    await expect(waiting).rejects.toThrow(WaitTimeout);
    await expect(waiting).rejects.toThrow(/Timed out after 30 ms waiting for the port; last seen:\nscreen: empty/);
  });

  it('awaits asynchronous probes and passes their errors on', async () => {
    await expect(waitUntil('a file', async () => 0)).resolves.toBe(0);
    await expect(waitUntil('a child', () => Promise.reject(new Error('exited with 3')))).rejects.toThrow(
      'exited with 3',
    );
  });
});
