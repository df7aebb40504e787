/**
 * Entry point of setup's Ink walkthrough. This module stays light: it draws the first question, then
 * loads Ink and React (most of the start-up time) and hands over to them.
 */
import type { CommandContext } from '../../../core/run-context.js';
import { EXIT } from '../../../core/errors.js';
import type { FlowOptions } from '../../../core/setup/wizard-flow.js';
import { startQuestions } from '../../../core/setup/questions.js';
import { exitCodeOf } from '../../../core/setup/outcome.js';
import { openSession, type SetupOptions } from '../../../core/setup/session.js';
import { vaultOfferOn } from '../../plain/vault-offer.js';
import { renderAfterFirstFrame } from './first-frame.js';
import type { SetupResult } from './SetupApp.js';

/** `cloudgate setup` in a terminal: the walkthrough, the review and the write. */
export async function runWizard(ctx: CommandContext, setup: SetupOptions, options: FlowOptions = {}): Promise<number> {
  const { session, initial, names } = await openSession(ctx, setup, vaultOfferOn(ctx));
  const flow: FlowOptions = { ...options, names, namespacesGiven: (setup.namespaces ?? []).length > 0 };
  const result = await renderAfterFirstFrame<SetupResult>(ctx.stdout, startQuestions(initial, flow), async () => {
    const { renderSession } = await import('./session.js');
    return (beforeRender) => renderSession({ ctx, initial, options: flow, session, beforeRender });
  });
  return result.kind === 'done' ? exitCodeOf(result.outcome) : EXIT.ok;
}
