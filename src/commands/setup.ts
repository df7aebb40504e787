import { resolve } from 'node:path';
import { commaList, type FlagsOf } from '../cli-flags.js';
import { UsageError } from '../core/errors.js';
import type { CommandContext } from '../core/run-context.js';
import type { SetupOptions } from '../core/setup/session.js';
import { inventoryOf, vaultOptionsOf } from './options.js';

const NEEDS_ANSWERS = new UsageError(
  'cloudgate setup needs --answers FILE when it cannot ask questions (no terminal, or CI is set).',
  'Write the answers as YAML (keys: the inventory variable names, see "cloudgate schema") and run: cloudgate setup --answers answers.yml [--dry-run]',
);

/** `cloudgate setup`'s flags as the session's settings. */
export function setupOptionsOf(flags: FlagsOf<'setup'>, cwd: string): SetupOptions {
  return {
    inventoryPath: inventoryOf(flags, cwd).inventoryPath,
    dryRun: flags.dryRun,
    apply: flags.apply,
    fixOrder: flags.fixOrder,
    secretManifestPath: flags.secretManifest ? resolve(cwd, flags.secretManifest) : undefined,
    namespaces: commaList(flags.namespace),
    names: flags.names,
    caFile: flags.caFile,
    vault: vaultOptionsOf(flags),
  };
}

/** Chooses the front-end: the answers file, the plain line prompts, or the walkthrough. */
export async function run(ctx: CommandContext, flags: FlagsOf<'setup'>): Promise<number> {
  const options = setupOptionsOf(flags, ctx.cwd);
  if (flags.answers) {
    const { runAnswers } = await import('../ui/plain/answers.js');
    return runAnswers(ctx, options, flags.answers, flags.yes);
  }
  // Without a terminal to ask on, the answers must come from a file (--plain asks questions too).
  if (!ctx.interactive) throw NEEDS_ANSWERS;
  if (flags.plain || ctx.plainTerminal) {
    const { runPlain } = await import('../ui/plain/setup.js');
    return runPlain(ctx, options);
  }
  const { runWizard } = await import('../ui/ink/setup/wizard.js');
  return runWizard(ctx, options);
}
