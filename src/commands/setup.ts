import { UsageError } from '../core/errors.js';
import { bool, str, type CommandContext } from '../core/run-context.js';

const NEEDS_ANSWERS = new UsageError(
  'cloudgate setup needs --answers FILE when it cannot ask questions (no terminal, or CI is set).',
  'Write the answers as YAML (keys: the inventory variable names, see "cloudgate schema") and run: cloudgate setup --answers answers.yml [--dry-run]',
);

/** Chooses the front-end: the answers file, the plain line prompts, or the walkthrough. */
export async function run(ctx: CommandContext): Promise<number> {
  const answersFile = str(ctx.flags, 'answers');
  if (answersFile) {
    const { runAnswers } = await import('../ui/plain/answers.js');
    return runAnswers(ctx, answersFile);
  }
  // Without a terminal to ask on, the answers must come from a file (--plain asks questions too).
  if (!ctx.interactive) throw NEEDS_ANSWERS;
  if (bool(ctx.flags, 'plain')) {
    const { runPlain } = await import('../ui/plain/setup.js');
    return runPlain(ctx);
  }
  const { runWizard } = await import('../ui/ink/setup/wizard.js');
  return runWizard(ctx);
}
