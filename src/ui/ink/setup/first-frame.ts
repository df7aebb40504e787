/**
 * The first question drawn as plain text before Ink and React have loaded (they take most of the
 * start-up time), so the operator sees it at once. It is the same layout as SetupApp's first frame;
 * Ink erases it and draws over it when it starts. Keys typed meanwhile wait in the raw-mode buffer.
 */
import {
  currentStep,
  defaultChoiceIndex,
  sessionTitle,
  stepsFor,
  type WizardState,
} from '../../../core/setup/wizard-flow.js';
import { colorEnabled, POINTER } from '../components/theme.js';

const bold = (s: string) => `\u001b[1m${s}\u001b[22m`;
const dim = (s: string) => `\u001b[2m${s}\u001b[22m`;
const cyan = (s: string) => (colorEnabled() ? `\u001b[36m${s}\u001b[39m` : s);

/** The lines of the first frame, or undefined when the first question is not a list. */
export function firstFrameLines(state: WizardState): string[] | undefined {
  const step = currentStep(state);
  if (!step || step.kind !== 'select' || !step.choices?.length) return undefined;
  const highlighted = defaultChoiceIndex(step, state.answers);
  const help = step.choices[highlighted]?.help;
  return [
    bold(cyan(sessionTitle(state.options))),
    dim(`${step.section} · question ${state.index + 1} of ${stepsFor(state.answers, state.options).length}`),
    bold(step.title),
    dim(step.help),
    '',
    ...step.choices.map((c, i) => (i === highlighted ? bold(cyan(`${POINTER} ${c.label}`)) : `  ${c.label}`)),
    ...(help ? ['', help] : []),
    '',
    dim('Enter next · Esc cancel · Ctrl+C cancel (nothing written)'),
  ];
}

const visible = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** Rows the lines take on a terminal this wide (long lines wrap). */
export function rowsOf(lines: string[], columns: number): number {
  return lines.reduce((n, line) => n + Math.max(1, Math.ceil(visible(line).length / Math.max(1, columns))), 0);
}

export interface Painted {
  /** Moves back to where the frame started and clears it, for Ink to draw in its place. */
  erase(): void;
}

export function paintFirstFrame(
  stdout: NodeJS.WriteStream,
  stdin: NodeJS.ReadStream,
  state: WizardState,
): Painted | undefined {
  if (!stdout.isTTY || !stdin.isTTY) return undefined;
  const lines = firstFrameLines(state);
  if (!lines) return undefined;
  // Raw mode now, so early keys are neither echoed over the frame nor lost: Ink reads them.
  stdin.setRawMode(true);
  stdout.write(`${lines.join('\n')}\n`);
  const rows = rowsOf(lines, stdout.columns || 80);
  return { erase: () => stdout.write(`\u001b[${rows}F\u001b[J`) };
}

/** An Ink app's end: its result, or the error (a cancel) to throw once the terminal is restored. */
export type Ended<R> = R | { kind: 'error'; error: Error };

/**
 * Paints the first question, loads the Ink app (`load`: its dynamic import) and renders it, erasing
 * the painted frame just before Ink draws. An error result leaves the last frame on screen, and its
 * message (a cancel) starts on its own line.
 */
export async function renderAfterFirstFrame<R extends { kind: string }>(
  stdout: NodeJS.WriteStream,
  state: WizardState,
  load: () => Promise<(beforeRender?: () => void) => Promise<Ended<R>>>,
): Promise<Exclude<R, { kind: 'error' }>> {
  const painted = paintFirstFrame(stdout, process.stdin, state);
  const render = await load().catch((error: unknown) => {
    // Leave the terminal as it was found (the first frame turned raw mode on).
    if (painted) process.stdin.setRawMode(false);
    throw error;
  });
  const result = await render(painted?.erase);
  if (isError(result)) {
    stdout.write('\n');
    throw result.error;
  }
  // isError's false branch cannot narrow a generic R; what is left is R without its kind 'error'.
  return result as Exclude<R, { kind: 'error' }>;
}

function isError<R extends { kind: string }>(result: Ended<R>): result is { kind: 'error'; error: Error } {
  return result.kind === 'error';
}
