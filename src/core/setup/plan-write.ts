/**
 * The two halves of writing an inventory, with no session around them: plan the answers and review
 * the plan (nothing written), then write what was reviewed and say what was done. setup's session
 * (session.ts) keeps the plan between the two for its front-ends; `cloudgate regenerate`
 * (regenerate-run.ts) holds it itself, between its look at the cluster and its deletions.
 */
import { resolve } from 'node:path';
import { WriteError } from '../errors.js';
import { selfCommand } from '../self-command.js';
import type { VaultKeyring } from '../inventory/vault-options.js';
import type { CommandContext } from '../run-context.js';
import type { Translation } from '../config/neutral-names.js';
import type { ValueSources } from '../config/value-sources.js';
import { applyPlan, planSetup, type Answers, type SetupPlan } from './plan.js';
import { reviewOf, type Review } from './review.js';
import { outcomeOf, type ApplyReport, type Outcome } from './outcome.js';

export interface PlanSettings {
  inventoryPath: string;
  dryRun: boolean;
  fixOrder?: boolean;
  secretManifestPath?: string;
  /** Namespaces of the TLS Secret of a supplied wildcard. */
  namespaces?: string[];
  /** `--names`: the words written (the platform's unless `spec`). */
  names?: string;
  vault?: VaultKeyring;
  /** The review of `cloudgate regenerate`, which deletes the old certificate secrets itself. */
  regenerating?: boolean;
}

/** Plans the write from the answers (planSetup's keys) and reviews it; nothing is written. */
export async function planAndReview(
  settings: PlanSettings,
  answers: Answers,
  options: { fixOrder?: boolean; translated?: Translation[]; sources?: ValueSources } = {},
): Promise<{ plan: SetupPlan; review: Review }> {
  const plan = await planSetup({
    answers,
    inventoryPath: settings.inventoryPath,
    fixOrder: settings.fixOrder || options.fixOrder,
    secretManifestPath: settings.secretManifestPath,
    namespaces: settings.namespaces,
    vault: settings.vault,
    names: settings.names,
    translated: options.translated,
    sources: options.sources,
  });
  await assertWritable(plan);
  return { plan, review: reviewOf(plan, { dryRun: settings.dryRun, regenerating: settings.regenerating }) };
}

/**
 * Before the review: every file the plan writes, and the inventory (its lock goes beside it), passes
 * the ownership rule, so that a refused folder, link or file is said now (exit 1, nothing written), not
 * after the operator confirmed. The write checks again, relative to the folders it holds open.
 */
async function assertWritable(plan: SetupPlan): Promise<void> {
  const { PathRefused, resolveWritePath } = await import('../inventory/links.js');
  for (const path of new Set([plan.inventoryPath, ...plan.files.map((f) => f.path)])) {
    try {
      await resolveWritePath(path);
    } catch (error) {
      if (error instanceof PathRefused) throw new WriteError(`Nothing was written: ${error.message}`, error.advice);
      throw error;
    }
  }
}

export interface WriteSettings {
  dryRun: boolean;
  /** `--apply`: kubectl apply the TLS Secret manifest of a supplied wildcard once written. */
  apply?: boolean;
  /** `--ca-file`: the doctor command of the next steps names it. */
  caFile?: string;
}

/** Writes a reviewed plan (atomic, all or nothing; nothing on a dry run), applies with --apply, and reports. */
export async function writePlan(ctx: CommandContext, plan: SetupPlan, settings: WriteSettings): Promise<Outcome> {
  const caFile = settings.caFile !== undefined ? resolve(ctx.cwd, settings.caFile) : undefined;
  const common = {
    facts: { caFile, caFromEnvironment: Boolean(ctx.env.OS_CACERT) },
    command: selfCommand(ctx.env, ctx.program),
  };
  if (settings.dryRun) return outcomeOf(plan, { ...common, dryRun: true, written: [] });
  const written = await applyPlan(plan);
  // An unchanged manifest is not rewritten, but --apply still applies it (a rerun after a failed apply).
  const applied = settings.apply ? await applySecret(plan, ctx.env) : undefined;
  return outcomeOf(plan, { ...common, dryRun: false, written, applied });
}

const NO_MANIFEST =
  '--apply: there is no TLS Secret manifest to apply (only a supplied wildcard certificate, wildcard_certificate_file and wildcard_key_file, has one).';

/** `--apply`: kubectl apply of the TLS Secret manifest on disk (written now, or unchanged from before). */
async function applySecret(plan: SetupPlan, env: NodeJS.ProcessEnv): Promise<ApplyReport> {
  // Nothing failed: there is nothing to apply. Said, and no reason for exit 1.
  if (!plan.supplied) return { ok: true, message: NO_MANIFEST };
  const { applyManifest } = await import('./apply-manifest.js');
  const result = await applyManifest(plan.supplied.manifestPath, { env }, plan.supplied.namespaces);
  return {
    ok: result.status === 'applied',
    message: result.message,
    ...(result.advice ? { advice: result.advice } : {}),
  };
}
