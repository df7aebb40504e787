/**
 * The one confirmation before a command changes something (`setup --answers`, `regenerate`): a line
 * answered y or n on the terminal; anything but yes, Ctrl+C or the end of the input cancel.
 */
import { CancelledError } from '../../core/errors.js';
import { LinePrompt, PromptCancelled } from './line-prompt.js';

export async function confirmOrCancel(
  question: string,
  cancelled: string,
  output: NodeJS.WritableStream,
): Promise<void> {
  // Ink unrefs stdin when a walkthrough ends; without this the process would exit at the prompt.
  process.stdin.ref?.();
  const prompt = new LinePrompt({ input: process.stdin, output, ascii: process.env.TERM === 'dumb' });
  try {
    if (!(await prompt.confirm({ message: question, default: false }))) throw new CancelledError(cancelled);
  } catch (error) {
    throw error instanceof PromptCancelled ? new CancelledError(cancelled) : error;
  } finally {
    prompt.close();
  }
}
