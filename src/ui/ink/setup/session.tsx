import type { CommandContext } from '../../../core/run-context.js';
import type { SetupSession } from '../../../core/setup/session.js';
import type { FlowOptions, WizardAnswers } from '../../../core/setup/wizard-flow.js';
import { SetupApp, type SetupResult } from './SetupApp.js';
import { renderUntilExit } from './render-until-exit.js';

export interface InkSession {
  ctx: CommandContext;
  initial: WizardAnswers;
  options: FlowOptions;
  session: SetupSession;
  /** Called just before Ink draws its first frame. */
  beforeRender?(): void;
}

/** Renders setup's walkthrough and settles once it has unmounted (terminal restored). */
export function renderSession({ ctx, initial, options, session, beforeRender }: InkSession): Promise<SetupResult> {
  return renderUntilExit<SetupResult>(
    ctx,
    (onExit) => <SetupApp initial={initial} options={options} session={session} onExit={onExit} />,
    { kind: 'error', error: new Error('The walkthrough ended without a result.') },
    beforeRender,
  );
}
