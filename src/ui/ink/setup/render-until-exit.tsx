import { render } from 'ink';
import type { ReactElement } from 'react';
import type { CommandContext } from '../../../core/run-context.js';
import { messageOf } from '../../../core/errors.js';

/**
 * Renders an app and settles with the result it exits with, once it has unmounted (terminal
 * restored). `beforeRender`: called just before Ink draws its first frame.
 */
export function renderUntilExit<R>(
  ctx: CommandContext,
  app: (onExit: (result: R) => void) => ReactElement,
  fallback: R,
  beforeRender?: () => void,
): Promise<R | { kind: 'error'; error: Error }> {
  return new Promise((settle) => {
    let result: R = fallback;
    beforeRender?.();
    const instance = render(
      app((r) => {
        result = r;
        setImmediate(() => instance.unmount());
      }),
      // Ctrl+C is the walkthrough's to handle: it must say that nothing was written and exit 130.
      { exitOnCtrlC: false, stdout: ctx.stdout, patchConsole: false },
    );
    instance.waitUntilExit().then(
      () => settle(result),
      (error: unknown) =>
        settle({ kind: 'error', error: error instanceof Error ? error : new Error(messageOf(error)) }),
    );
  });
}
