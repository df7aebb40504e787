/**
 * Drives an Ink tree in ink-testing-library: after each keystroke, waits for the next drawn frame
 * (or a short quiet period when the key changes nothing), so assertions read what a person would see.
 */
import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';

export const KEY = {
  enter: '\r',
  escape: '\u001b',
  up: '\u001b[A',
  down: '\u001b[B',
  backspace: '\u007f',
  delete: '\u001b[3~',
  left: '\u001b[D',
  right: '\u001b[C',
  home: '\u001b[H',
  end: '\u001b[F',
  tab: '\t',
  ctrlA: '\u0001',
  ctrlE: '\u0005',
  ctrlK: '\u000b',
  ctrlU: '\u0015',
  ctrlW: '\u0017',
  ctrlC: '\u0003',
} as const;

// Generous: on a loaded machine a frame can take a while; keys that change nothing are rare in tests.
const QUIET_MS = 200;
const SETTLE_MS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
export const stripAnsi = (text: string) => text.replace(ANSI, '');

export interface InkDriver {
  /** The last frame without colour codes. */
  frame(): string;
  /** Writes keys (one chunk) and waits for the frame they cause. */
  press(keys: string): Promise<void>;
  /** Writes each key as its own chunk, one right after the other, before any redraw; then waits for the frame. */
  burst(...keys: string[]): Promise<void>;
  /** Types text, then Enter. */
  answer(text: string): Promise<void>;
  /** Waits until the frame contains `text` (for asynchronous work such as planning a write). */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  unmount(): void;
  frames: string[];
}

async function nextFrame(frames: string[], before: number): Promise<void> {
  const start = Date.now();
  while (frames.length === before && Date.now() - start < QUIET_MS) await sleep(5);
  await sleep(SETTLE_MS);
}

export async function renderInk(tree: ReactElement): Promise<InkDriver> {
  const instance = render(tree);
  await nextFrame(instance.frames, 0);
  const frame = () => stripAnsi(instance.lastFrame() ?? '');
  const press = async (keys: string) => {
    const before = instance.frames.length;
    instance.stdin.write(keys);
    await nextFrame(instance.frames, before);
  };
  return {
    frame,
    press,
    async burst(...keys: string[]) {
      const before = instance.frames.length;
      for (const key of keys) instance.stdin.write(key);
      await nextFrame(instance.frames, before);
    },
    async answer(text: string) {
      if (text) await press(text);
      await press(KEY.enter);
    },
    async waitFor(text, timeoutMs = 5000) {
      const start = Date.now();
      const seen = () => (typeof text === 'string' ? frame().includes(text) : text.test(frame()));
      while (!seen()) {
        if (Date.now() - start > timeoutMs) throw new Error(`Timed out waiting for ${String(text)}; last frame:\n${frame()}`);
        await sleep(10);
      }
      // Input handlers attach in effects that run just after the frame is drawn.
      await sleep(SETTLE_MS);
    },
    unmount: () => instance.unmount(),
    frames: instance.frames,
  };
}
