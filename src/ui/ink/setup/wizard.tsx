/**
 * Entry points of the Ink walkthrough. This module stays light: it draws the first question, then
 * loads Ink and React (most of the start-up time) and hands over to them.
 */
import type { CommandContext } from '../../../core/run-context.js';
import { EXIT } from '../../../core/errors.js';
import { answersFromInventory, initialState, type FlowOptions, type WizardAnswers } from '../../../core/setup/wizard-flow.js';
import { exitCodeOf } from '../../../core/setup/outcome.js';
import { openSession, type SetupOptions, type SetupSession } from '../../../core/setup/session.js';
import { vaultOfferOn } from '../../plain/vault-offer.js';
import { paintFirstFrame } from './first-frame.js';
import type { SetupResult } from './SetupApp.js';
import type { NamingProfile } from '../../../core/render/names.js';

async function walkthrough(ctx: CommandContext, initial: WizardAnswers, options: FlowOptions, session: SetupSession, answersOnly: boolean): Promise<SetupResult> {
  const painted = paintFirstFrame(ctx.stdout, process.stdin, initialState(initial, options));
  const { renderSession } = await import('./session.js').catch((error: unknown) => {
    // Leave the terminal as it was found (the first frame turned raw mode on).
    if (painted) process.stdin.setRawMode(false);
    throw error;
  });
  const result = await renderSession({ ctx, initial, options, session, answersOnly, beforeRender: painted?.erase });
  if (result.kind === 'error') {
    // The last frame stays on screen; the cancel or error message starts on its own line.
    ctx.stdout.write('\n');
    throw result.error;
  }
  return result;
}

/**
 * `cloudgate setup` in a terminal: the walkthrough, the review and the write. `only: 'issuer'` asks
 * just the issuer part and keeps the rest of the inventory (used by `cloudgate regenerate`).
 */
export async function runWizard(ctx: CommandContext, setup: SetupOptions, options: FlowOptions = {}): Promise<number> {
  const { session, initial, names, askNames } = await openSession(ctx, setup, vaultOfferOn(ctx));
  const result = await walkthrough(ctx, initial, { ...options, names, askNames, namespacesGiven: (setup.namespaces ?? []).length > 0 }, session, false);
  return result.kind === 'done' ? exitCodeOf(result.outcome) : EXIT.ok;
}

/**
 * Asks only the issuer part, starting from the inventory's values, and returns the answers for
 * planSetup (nothing is planned or written). Cancelling throws CancelledError.
 */
export async function askIssuer(ctx: CommandContext, inventoryValues: Record<string, unknown>, names?: NamingProfile): Promise<Record<string, unknown>> {
  const session: SetupSession = {
    cwd: ctx.cwd,
    dryRun: true,
    prepare: () => Promise.reject(new Error('askIssuer does not plan')),
    write: () => Promise.reject(new Error('askIssuer does not write')),
  };
  const result = await walkthrough(ctx, answersFromInventory(inventoryValues), { only: 'issuer', names }, session, true);
  if (result.kind !== 'answers') throw new Error('The issuer questions ended without answers.');
  return result.answers;
}
