import { KEY, type InkDriver } from './ink.js';

/** Moves the highlight to the choice whose label starts with `label`, then presses Enter. */
export async function choose(ui: InkDriver, label: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    if (ui.frame().split('\n').some((line) => line.startsWith(`> ${label}`))) {
      await ui.press(KEY.enter);
      return;
    }
    await ui.press(KEY.down);
  }
  throw new Error(`No choice "${label}" on screen:\n${ui.frame()}`);
}

/** The question currently asked (the bold line under the progress line). */
export function question(ui: InkDriver): string {
  const lines = ui.frame().split('\n');
  const i = lines.findIndex((l) => / · question \d+ of \d+/.test(l));
  return i < 0 ? '' : lines[i + 1].replace(/ \(optional\)$/, '').trim();
}
