import { runRegenerate } from '../core/setup/regenerate-run.js';
import { bool, type CommandContext } from '../core/run-context.js';

/** Wires the front-end (issuer questions, vault offer, confirmation) to the regenerate run. */
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
    async confirm(question, cancelled) {
      const { confirmOrCancel } = await import('../ui/plain/confirm.js');
      return confirmOrCancel(question, cancelled, ctx.stderr);
    },
  });
}
