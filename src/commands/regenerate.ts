import { resolve } from 'node:path';
import { commaList, type FlagsOf } from '../cli-flags.js';
import type { CommandContext } from '../core/run-context.js';
import { runRegenerate, waitTimeout, type RegenerateOptions } from '../core/setup/regenerate-run.js';
import { inventoryOf, vaultOptionsOf } from './options.js';
import { printRegenerateEvent } from '../ui/text/regenerate.js';

/** `cloudgate regenerate`'s flags as its settings (a bad --wait-timeout is refused here, exit 2). */
export function regenerateOptionsOf(flags: FlagsOf<'regenerate'>, cwd: string): RegenerateOptions {
  return {
    waitSeconds: flags.wait ? waitTimeout(flags.waitTimeout) : undefined,
    inventoryPath: inventoryOf(flags, cwd).inventoryPath,
    answersFile: flags.answers ? resolve(cwd, flags.answers) : undefined,
    dryRun: flags.dryRun,
    yes: flags.yes,
    context: flags.context,
    namespaces: commaList(flags.namespace),
    names: flags.names,
    vault: vaultOptionsOf(flags),
  };
}

/**
 * Wires the front-end (issuer questions, vault offer, the review to confirm) to the regenerate run.
 * The questions are the questions-only walkthrough: no setup session is opened to ask them.
 */
export async function run(ctx: CommandContext, flags: FlagsOf<'regenerate'>): Promise<number> {
  // A terminal that cannot draw (TERM=dumb) gets the line prompts, as --plain asks for.
  const plain = flags.plain || ctx.plainTerminal === true;
  return runRegenerate(ctx, regenerateOptionsOf(flags, ctx.cwd), {
    async offerVault(values) {
      const { vaultOfferOn } = await import('../ui/plain/vault-offer.js');
      return vaultOfferOn(ctx)(values);
    },
    async askIssuer(values, names) {
      if (plain) {
        const { askIssuerPlain } = await import('../ui/plain/ask-issuer.js');
        return askIssuerPlain(ctx, values, names);
      }
      const { askIssuer } = await import('../ui/ink/setup/ask-issuer.js');
      return askIssuer(ctx, values, names);
    },
    async confirm(question, cancelled, review) {
      // The walkthrough's review screen and keys (Enter does it); --plain keeps the line prompt.
      if (!plain) {
        const { confirmOnReview } = await import('../ui/ink/setup/confirm-review.js');
        return confirmOnReview(ctx, question, cancelled, review);
      }
      const { confirmOrCancel } = await import('../ui/plain/confirm.js');
      return confirmOrCancel(question, cancelled, ctx.stderr);
    },
    reviewOnConfirm: !plain,
    show: (event) => printRegenerateEvent(event, ctx),
  });
}
