import { render } from 'ink';
import type { CommandContext } from '../../commands/types.js';
import { EXIT } from '../../core/errors.js';
import { answersFromInventory, type FlowOptions, type WizardAnswers } from '../../core/wizard-flow.js';
import { setupServices } from './services.js';
import { SetupApp, type SetupResult } from './SetupApp.js';
import type { SetupServices } from './types.js';

interface Session {
  ctx: CommandContext;
  initial: WizardAnswers;
  options: FlowOptions;
  services: SetupServices;
  answersOnly: boolean;
}

/** Renders the walkthrough and settles once it has unmounted (terminal restored). */
function session({ ctx, initial, options, services, answersOnly }: Session): Promise<SetupResult> {
  return new Promise((settle) => {
    let result: SetupResult = { kind: 'error', error: new Error('The walkthrough ended without a result.') };
    const instance = render(
      <SetupApp
        initial={initial}
        options={options}
        services={services}
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

/**
 * `cloudgate setup` in a terminal: the walkthrough, the review and the write. `only: 'issuer'` asks
 * just the issuer part and keeps the rest of the inventory (used by `cloudgate regenerate`).
 */
export async function runWizard(ctx: CommandContext, options: FlowOptions = {}): Promise<number> {
  const { services, initial } = await setupServices(ctx);
  const result = await session({ ctx, initial, options, services, answersOnly: false });
  if (result.kind === 'error') {
    // The last frame stays on screen; the cancel or error message starts on its own line.
    ctx.stdout.write('\n');
    throw result.error;
  }
  return EXIT.ok;
}

/**
 * Asks only the issuer part, starting from the inventory's values, and returns the answers for
 * planSetup (nothing is planned or written). Cancelling throws CancelledError.
 */
export async function askIssuer(ctx: CommandContext, inventoryValues: Record<string, unknown>): Promise<Record<string, unknown>> {
  const initial = answersFromInventory(inventoryValues);
  const services: SetupServices = {
    cwd: ctx.cwd,
    dryRun: true,
    prepare: () => Promise.reject(new Error('askIssuer does not plan')),
    write: () => Promise.reject(new Error('askIssuer does not write')),
  };
  const result = await session({ ctx, initial, options: { only: 'issuer' }, services, answersOnly: true });
  if (result.kind === 'error') {
    ctx.stdout.write('\n');
    throw result.error;
  }
  if (result.kind !== 'answers') throw new Error('The issuer questions ended without answers.');
  return result.answers;
}
