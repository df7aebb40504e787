/**
 * `cloudgate regenerate`'s questions in the terminal: the issuer part of the walkthrough and nothing
 * else (QuestionsApp). No setup session is opened: the answers go back to regenerate's run, which
 * plans, reviews and writes them itself. Light like wizard.tsx: Ink loads after the first frame.
 */
import type { CommandContext } from '../../../core/run-context.js';
import type { NamingProfile } from '../../../core/render/names.js';
import { answersFromInventory, type FlowOptions } from '../../../core/setup/wizard-flow.js';
import { startQuestions } from '../../../core/setup/questions.js';
import { renderAfterFirstFrame } from './first-frame.js';
import type { QuestionsResult } from './Questions.js';

/**
 * Asks only the issuer part, starting from the inventory's values, and returns the answers for
 * planSetup (nothing is planned or written). Cancelling throws CancelledError.
 */
export async function askIssuer(
  ctx: CommandContext,
  inventoryValues: Record<string, unknown>,
  names?: NamingProfile,
): Promise<Record<string, unknown>> {
  const initial = answersFromInventory(inventoryValues);
  const options: FlowOptions = { only: 'issuer', names };
  const result = await renderAfterFirstFrame<QuestionsResult>(
    ctx.stdout,
    startQuestions(initial, options),
    async () => {
      const { renderQuestions } = await import('./Questions.js');
      return (beforeRender) => renderQuestions({ ctx, initial, options, beforeRender });
    },
  );
  return result.answers;
}
