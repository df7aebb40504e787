/**
 * Waiting for the thing itself: `waitUntil` asks `probe` again and again until it returns something
 * other than undefined/false/null, and fails loudly at the deadline with what was awaited and, when
 * given, the last state seen (a screen, a log). This is a bounded wait for a condition, never a sleep
 * that hopes something happened: it returns as soon as the condition holds.
 */
export interface WaitOptions {
  timeoutMs?: number;
  /** Pause between two probes; small, it only spares the CPU. */
  intervalMs?: number;
  /** What to show when the deadline passes (e.g. the last screen). */
  lastSeen?: () => string;
}

export class WaitTimeout extends Error {}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitUntil<T>(
  what: string,
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 10, lastSeen } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() >= deadline) {
      const seen = lastSeen ? `; last seen:\n${lastSeen()}` : '';
      throw new WaitTimeout(`Timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await pause(intervalMs);
  }
}
