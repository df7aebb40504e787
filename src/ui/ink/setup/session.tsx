import { render } from 'ink';
import type { CommandContext } from '../../../core/run-context.js';
import type { SetupSession } from '../../../core/setup/session.js';
import type { FlowOptions, WizardAnswers } from '../../../core/setup/wizard-flow.js';
import { SetupApp, type SetupResult } from './SetupApp.js';

export interface InkSession {
  ctx: CommandContext;
  initial: WizardAnswers;
  options: FlowOptions;
  session: SetupSession;
  answersOnly: boolean;
  /** Called just before Ink draws its first frame. */
  beforeRender?(): void;
}

/** Renders the walkthrough and settles once it has unmounted (terminal restored). */
export function renderSession({ ctx, initial, options, session, answersOnly, beforeRender }: InkSession): Promise<SetupResult> {
  return new Promise((settle) => {
    let result: SetupResult = { kind: 'error', error: new Error('The walkthrough ended without a result.') };
    beforeRender?.();
    const instance = render(
      <SetupApp
        initial={initial}
        options={options}
        session={session}
        answersOnly={answersOnly}
        onExit={(r) => {
          result = r;
          setImmediate(() => instance.unmount());
        }}
      />,
      // Ctrl+C is the walkthrough's to handle: it must say that nothing was written and exit 130.
      { exitOnCtrlC: false, stdout: ctx.stdout, patchConsole: false },
    );
    instance.waitUntilExit().then(() => settle(result), (error: unknown) => settle({ kind: 'error', error: error as Error }));
  });
}
