/**
 * Drives an Ink tree in ink-testing-library. Each keystroke is written inside React's `act`, which
 * runs the input handlers, the renders and the effects they cause before it resolves: assertions read
 * the frame a person would see, with no waiting for a quiet period. A key that changes nothing has
 * been handled all the same when `press` returns. Work that finishes later (a request, planning a
 * write) is awaited with `waitFor`, which fails with the last frame at its deadline.
 */
import { render } from 'ink-testing-library';
import { act, type ReactElement } from 'react';
import { waitUntil } from './wait.js';

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

/**
 * Runs `work` inside act and lets React finish what it causes. Ink reads a lone Escape after one turn of
 * the event loop (it may start a longer sequence), so the scope lasts one turn. React warns about
 * updates outside act only while the act environment flag is set: it is set for this scope only, so
 * the work that ends later (seen through `waitFor`) renders as it would in a terminal.
 */
async function inAct(work: () => void): Promise<void> {
  const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  scope.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    await act(async () => {
      work();
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
  } finally {
    scope.IS_REACT_ACT_ENVIRONMENT = false;
  }
}

export async function renderInk(tree: ReactElement): Promise<InkDriver> {
  let instance!: ReturnType<typeof render>;
  await inAct(() => (instance = render(tree)));
  const frame = () => stripAnsi(instance.lastFrame() ?? '');
  const press = (keys: string) => inAct(() => instance.stdin.write(keys));
  return {
    frame,
    press,
    burst: (...keys: string[]) => inAct(() => keys.forEach((key) => instance.stdin.write(key))),
    async answer(text: string) {
      if (text) await press(text);
      await press(KEY.enter);
    },
    async waitFor(text, timeoutMs = 5000) {
      const seen = () => (typeof text === 'string' ? frame().includes(text) : text.test(frame()));
      await waitUntil(`the frame to show ${String(text)}`, seen, { timeoutMs, lastSeen: frame });
      // The effects of that frame (input handlers attach in them) run before the next key.
      await inAct(() => {});
    },
    unmount: () => instance.unmount(),
    frames: instance.frames,
  };
}
