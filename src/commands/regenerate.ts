import { runRegenerate } from '../core/setup/regenerate-run.js';
import { bool, type CommandContext } from '../core/run-context.js';

/** Wires the front-end (issuer questions, vault offer, the review to confirm) to the regenerate run. */
export async function run(ctx: CommandContext): Promise<number> {
  return runRegenerate(ctx, {
    async offerVault(values) {
      const { vaultOfferOn } = await import('../ui/plain/vault-offer.js');
      return vaultOfferOn(ctx)(values);
    },
    async askIssuer(values, names) {
      if (bool(ctx.flags, 'plain')) {
        const { askIssuerPlain } = await import('../ui/plain/setup.js');
        return askIssuerPlain(ctx, values, names);
      }
      const { askIssuer } = await import('../ui/ink/setup/wizard.js');
      return askIssuer(ctx, values, names);
    },
    async confirm(question, cancelled, review) {
      // The walkthrough's review screen and keys (Enter does it); --plain keeps the line prompt.
      if (!bool(ctx.flags, 'plain')) {
        const { confirmOnReview } = await import('../ui/ink/setup/confirm-review.js');
        return confirmOnReview(ctx, question, cancelled, review);
      }
      const { confirmOrCancel } = await import('../ui/plain/confirm.js');
      return confirmOrCancel(question, cancelled, ctx.stderr);
    },
    reviewOnConfirm: !bool(ctx.flags, 'plain'),
  });
}
