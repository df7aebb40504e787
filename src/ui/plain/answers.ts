/**
 * `cloudgate setup --answers FILE`: the session without questions. The review and the outcome go to
 * stderr as lines; stdout carries only the inventory diff of --dry-run.
 */
import { resolve } from 'node:path';
import { EXIT } from '../../core/errors.js';
import { escapeControl } from '../../core/escape.js';
import { lineWriter } from '../../core/net/http-log.js';
import { vaultKeyringFromOptions } from '../../core/inventory/vault-options.js';
import { readAnswers } from '../../core/setup/plan.js';
import { CANCELLED, exitCodeOf, outcomeText } from '../../core/setup/outcome.js';
import { reviewText } from '../../core/setup/review.js';
import { createSession, type SetupOptions } from '../../core/setup/session.js';
import type { CommandContext } from '../../core/run-context.js';
import { confirmOrCancel } from './confirm.js';

/** `yes`: write without asking even on a terminal. */
export async function runAnswers(
  ctx: CommandContext,
  options: SetupOptions,
  answersFile: string,
  yes: boolean,
): Promise<number> {
  const log = lineWriter(ctx.stderr);
  const { answers, translated, sources } = await readAnswers(resolve(ctx.cwd, answersFile));
  const { vault: vaultOptions, ...settings } = options;
  const vault = await vaultKeyringFromOptions(vaultOptions, ctx.env, ctx.cwd);
  const session = createSession(ctx, { ...settings, vault });
  const review = await session.prepare(answers, { translated, sources });
  for (const line of reviewText(review, { inventoryDiff: !review.dryRun })) log(line);

  if (review.dryRun) {
    ctx.stdout.write(escapeControl(review.diff));
    log(
      review.blocked
        ? 'Dry run: the settings have errors (above); nothing would be written.'
        : 'Dry run: nothing was written.',
    );
    return review.blocked ? EXIT.usage : EXIT.ok;
  }
  if (review.blocked) {
    log('Nothing was written: fix the errors above in the answers file and run again.');
    return EXIT.usage;
  }
  if (review.files.length > 0 && ctx.interactive && !yes) {
    await confirmOrCancel('Write these files?', CANCELLED, ctx.stderr);
  }
  // Also with nothing to write: it clears what a killed run left, and --apply still applies.
  const outcome = await session.write();
  for (const line of outcomeText(outcome)) log(line);
  return exitCodeOf(outcome);
}
