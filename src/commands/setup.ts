import { resolve } from 'node:path';
import { describeWritten } from '../core/inventory/atomic-write.js';
import { EXIT, UsageError } from '../core/errors.js';
import { hasErrors } from '../core/findings.js';
import { DEFAULT_INVENTORY } from '../core/config/paths.js';
import { vaultKeyringFromOptions } from '../core/inventory/vault-options.js';
import { escapeControl } from '../core/escape.js';
import { lineWriter } from '../core/net/http-log.js';
import { applyPlan, nextSteps, planSetup, readAnswers, reviewLines } from '../core/setup/plan.js';
import { bool, list, str, type CommandContext } from '../core/run-context.js';

const NEEDS_ANSWERS = new UsageError(
  'cloudgate setup needs --answers FILE when it cannot ask questions (no terminal, or CI is set).',
  'Write the answers as YAML (keys: the inventory variable names, see "cloudgate schema") and run: cloudgate setup --answers answers.yml [--dry-run]',
);

export async function run(ctx: CommandContext): Promise<number> {
  const { flags } = ctx;
  const answersFile = str(flags, 'answers');
  if (!answersFile) {
    if (bool(flags, 'plain')) {
      // Plain mode still asks questions: without a terminal to ask on, the answers must come from a file.
      if (!ctx.interactive) throw NEEDS_ANSWERS;
      const { runPlain } = await import('../ui/plain/setup.js');
      return runPlain(ctx);
    }
    if (ctx.interactive) {
      const { runWizard } = await import('../ui/ink/setup/wizard.js');
      return runWizard(ctx);
    }
    throw NEEDS_ANSWERS;
  }
  return runAnswers(ctx, answersFile);
}

/** Headless mode: `--answers` implies no questions. The review goes to stderr; stdout only carries the --dry-run diff. */
async function runAnswers(ctx: CommandContext, answersFile: string): Promise<number> {
  const { flags, cwd } = ctx;
  const log = lineWriter(ctx.stderr);
  const answers = await readAnswers(resolve(cwd, answersFile));
  const vault = await vaultKeyringFromOptions(flags, ctx.env, cwd);
  const secretManifest = str(flags, 'secret-manifest');
  const plan = await planSetup({
    answers,
    inventoryPath: resolve(cwd, str(flags, 'inventory') ?? DEFAULT_INVENTORY),
    fixOrder: bool(flags, 'fix-order'),
    secretManifestPath: secretManifest ? resolve(cwd, secretManifest) : undefined,
    namespaces: list(flags, 'namespace'),
    vault,
    names: str(flags, 'names'),
  });
  for (const line of reviewLines(plan)) log(line);

  if (bool(flags, 'dry-run')) {
    ctx.stdout.write(escapeControl(plan.diff));
    ctx.stderr.write(escapeControl(plan.cluster.diff));
    log(hasErrors(plan.findings) ? 'Dry run: the settings have errors (above); nothing would be written.' : 'Dry run: nothing was written.');
    return hasErrors(plan.findings) ? EXIT.usage : EXIT.ok;
  }
  if (hasErrors(plan.findings)) {
    log('Nothing was written: fix the errors above in the answers file and run again.');
    return EXIT.usage;
  }
  if (plan.files.length === 0) {
    await applyPlan(plan); // writes nothing; clears what a killed run left beside the inventory
    return EXIT.ok;
  }
  if (ctx.interactive && !bool(flags, 'yes')) {
    const { confirmOrCancel } = await import('../ui/plain/confirm.js');
    await confirmOrCancel('Write these files?', 'Cancelled. Nothing was written.', ctx.stderr);
  }

  const written = await applyPlan(plan);
  for (const file of written) {
    log(`Wrote ${describeWritten(file)}`);
  }
  let applied = false;
  if (bool(flags, 'apply') && plan.supplied) {
    const { applyManifest } = await import('../core/setup/apply-manifest.js');
    const result = await applyManifest(plan.supplied.manifestPath, { env: ctx.env }, plan.supplied.namespaces);
    log(result.message);
    if (result.advice) log(`  ${result.advice}`);
    if (result.status !== 'applied') return EXIT.findings;
    applied = true;
  } else if (bool(flags, 'apply')) {
    log('--apply: there is no TLS Secret manifest to apply (it comes with wildcard_certificate_file and wildcard_key_file).');
  }
  log('Next steps:');
  for (const step of nextSteps(plan, { applied })) log(`  ${step}`);
  return EXIT.ok;
}

