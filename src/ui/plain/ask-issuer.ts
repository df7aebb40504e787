/**
 * `cloudgate regenerate --plain`'s questions: the issuer part of the walkthrough, line by line, and
 * nothing else. No setup session is opened: the answers go back to regenerate's run.
 */
import type { CommandContext } from '../../core/run-context.js';
import type { NamingProfile } from '../../core/render/names.js';
import { CancelledError } from '../../core/errors.js';
import { answersFromInventory } from '../../core/setup/wizard-flow.js';
import { answersOf, startQuestions } from '../../core/setup/questions.js';
import { CANCELLED_REGENERATE } from '../../core/setup/outcome.js';
import { askAll, askerFor, ioOf } from './questions.js';

/** Asks only the issuer part in plain mode and returns the answers for planSetup. */
export async function askIssuerPlain(
  ctx: CommandContext,
  inventoryValues: Record<string, unknown>,
  names?: NamingProfile,
): Promise<Record<string, unknown>> {
  const asker = askerFor(ioOf(ctx));
  try {
    const state = await askAll(startQuestions(answersFromInventory(inventoryValues), { only: 'issuer', names }), asker);
    return answersOf(state)!;
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new CancelledError(CANCELLED_REGENERATE);
    throw error;
  } finally {
    asker.prompt.close();
  }
}
