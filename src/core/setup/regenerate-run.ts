/**
 * `cloudgate regenerate`: the issuer part of setup (same questions, same review, same write), then the
 * certificate secrets the old issuer left are found and deleted, once the new issuer is deployed.
 * The front-end asks the issuer questions (the questions-only walkthrough), offers the vault and
 * confirms; everything else happens here. No setup session: plan-write.ts plans and writes.
 */
import { EXIT, UsageError } from '../errors.js';
import { readInventoryFile } from '../inventory/inventory.js';
import { namesView } from '../config/neutral-names.js';
import type { NamingProfile } from '../config/variables.js';
import { kubeAvailability, KubectlError, type KubectlOptions } from '../kube/kubectl.js';
import { readLiveState } from '../render/live-state.js';
import { renderingsToCompare, type Rendering } from '../render/drift.js';
import { vaultKeyringFromOptions, type VaultOptions } from '../inventory/vault-options.js';
import { openVaulted } from '../inventory/vaulted-values.js';
import type { CommandContext } from '../run-context.js';
import { readAnswers, type Answers } from './plan.js';
import { CANCELLED_REGENERATE } from './outcome.js';
import type { Review } from './review.js';
import type { VaultOffer } from './session.js';
import { planAndReview, writePlan } from './plan-write.js';
import { deleteInBatches, deletionBatches, startProgress } from './regenerate-delete.js';
import { cleanUpOnExit } from '../exit-cleanup.js';
import type { IssuedSelection } from './regenerate-select.js';
import { INGRESS_NAMESPACES, issuerNameOf } from '../kube/platform.js';
import { currentIssuer, findSecrets, notDeployed } from './regenerate-cluster.js';
import type { RegenerateEvent } from './regenerate-events.js';
import { waitForReissue } from './regenerate-wait.js';

export interface RegenerateFrontEnd {
  offerVault: VaultOffer;
  /** The issuer questions, starting from the inventory's values; answers for planSetup. */
  askIssuer(values: Record<string, unknown>, names: NamingProfile): Promise<Answers>;
  /** Asks once; throws CancelledError(cancelled) on anything but yes. */
  confirm(question: string, cancelled: string, review: Review): Promise<void>;
  /** The confirmation shows the review itself (the walkthrough's review screen): it is not printed before. */
  reviewOnConfirm?: boolean;
  /** Says one thing the run has to say (ui/text/regenerate.ts prints it). */
  show(event: RegenerateEvent): void;
}

/** `cloudgate regenerate`'s settings, from its flags. */
export interface RegenerateOptions {
  /** Absolute. */
  inventoryPath: string;
  /** The issuer answers file (absolute); the front-end asks without one. */
  answersFile?: string;
  dryRun: boolean;
  yes: boolean;
  /** `--wait`: how long to follow the Certificates (waitTimeout); undefined: no waiting. */
  waitSeconds?: number;
  /** The kubeconfig context. */
  context?: string;
  /** Where to look for certificate secrets; empty: the platform's. */
  namespaces: string[];
  names?: string;
  vault: VaultOptions;
}

export async function runRegenerate(
  ctx: CommandContext,
  options: RegenerateOptions,
  ui: RegenerateFrontEnd,
): Promise<number> {
  const { cwd } = ctx;
  const show = (event: RegenerateEvent) => ui.show(event);
  const { dryRun, yes, waitSeconds, answersFile, inventoryPath } = options;
  if (!answersFile && !ctx.interactive) {
    throw new UsageError(
      'cloudgate regenerate needs --answers FILE when it cannot ask questions (no terminal, or CI is set).',
      'Write the issuer answers as YAML (e.g. "cluster_issuer_type: ca" plus its variables) and run: cloudgate regenerate --answers issuer.yml --dry-run',
    );
  }
  if (!dryRun && !yes && !ctx.interactive) {
    throw new UsageError(
      'cloudgate regenerate deletes certificate secrets and needs a confirmation; without a terminal pass --yes.',
      'Run with --dry-run first to see the exact kubectl commands, then again with --yes.',
    );
  }

  const current = await readInventoryFile(inventoryPath);
  if (!current.exists) {
    throw new UsageError(
      `There is no inventory at ${inventoryPath}; regenerate changes the issuer of an existing one.`,
      'Give its path with --inventory, or write one first with "cloudgate setup".',
    );
  }
  const vault =
    (await vaultKeyringFromOptions(options.vault, ctx.env, cwd)) ??
    (answersFile ? undefined : await ui.offerVault(current.values));
  const view = namesView(current.values, inventoryPath, options.names);
  const opened = openVaulted(view.meant, vault).values;
  const file = answersFile ? await readAnswers(answersFile) : undefined;
  const answers = file ? file.answers : await ui.askIssuer(opened, view.profile);
  const { plan, review } = await planAndReview(
    { inventoryPath, dryRun, vault, names: options.names, regenerating: true },
    answers,
    { translated: file?.translated, sources: file?.sources },
  );
  const onScreen = Boolean(ui.reviewOnConfirm) && !yes && !dryRun && !review.blocked;
  if (!onScreen) show({ kind: 'review', review });
  if (review.blocked) {
    show({ kind: 'blocked' });
    return EXIT.usage;
  }

  const kube: KubectlOptions = { context: options.context, env: ctx.env };
  const namespaces = options.namespaces.length ? options.namespaces : INGRESS_NAMESPACES;
  const protectedNames = [
    opened.openstack_helm_ingress_secret_name,
    plan.values.openstack_helm_ingress_secret_name,
  ].filter((n): n is string => typeof n === 'string' && n !== '');

  const cluster = await kubeAvailability(kube);
  // The ClusterIssuer being replaced is the one the current inventory names (null: a template).
  const issuerName = issuerNameOf(opened);
  let selection: IssuedSelection | undefined;
  let guard: string | undefined;
  if (cluster.ok) {
    kube.context = cluster.context;
    const renderings = renderingsToCompare({ values: plan.values, profile: plan.names, stated: view.stated });
    try {
      const live = await readLiveState(
        kube,
        renderings.flatMap((r) => r.objects),
      );
      guard =
        'error' in live
          ? `Cannot read ${live.what} (${live.error}), so it is unknown whether the new issuer is deployed.`
          : notDeployed(plan, renderings, live, renderedIssuerName(renderings));
      selection = await findSecrets(
        kube,
        namespaces,
        issuerName,
        protectedNames,
        currentIssuer(plan, 'error' in live ? undefined : live.issuer),
      );
    } catch (error) {
      // kubectl that did not answer (or failed) is kubectl's problem at that step, said as such: nothing was written or deleted.
      if (!(error instanceof KubectlError)) throw error;
      show({ kind: 'kubectl-failed', message: error.message, advice: error.advice });
      return EXIT.findings;
    }
    show({ kind: 'selection', selection, issuerName, namespaces });
    if (guard) show({ kind: 'not-deployed', why: guard });
  } else {
    show({ kind: 'no-cluster', reason: cluster.reason });
  }

  if (dryRun) {
    // Only what the real run would delete is printed as commands: `--dry-run > delete.sh` must be safe.
    const wouldDelete = cluster.ok && !guard ? (selection?.stale ?? []) : [];
    show({
      kind: 'delete-commands',
      batches: deletionBatches(wouldDelete),
      ...(kube.context ? { context: kube.context } : {}),
    });
    if (selection?.undecided && !guard && cluster.ok) {
      show({ kind: 'dry-run', verdict: 'undecided', deleting: 0 });
      return EXIT.findings;
    }
    if (!cluster.ok || guard) {
      show({ kind: 'dry-run', verdict: 'not-deployed', deleting: 0 });
      return EXIT.findings;
    }
    show({ kind: 'dry-run', verdict: 'would-delete', deleting: wouldDelete.length });
    return EXIT.ok;
  }

  const stale = guard ? [] : (selection?.stale ?? []);
  // Nothing to write and nothing to delete: no question.
  const nothing = review.files.length === 0 && stale.length === 0;
  if (onScreen && nothing) show({ kind: 'review', review });
  if (!yes && !nothing) {
    const what = [
      review.files.length ? 'write the inventory' : '',
      stale.length ? `delete ${stale.length} secret(s)` : '',
    ]
      .filter(Boolean)
      .join(' and ');
    await ui.confirm(`${what[0].toUpperCase() + what.slice(1)}?`, CANCELLED_REGENERATE, review);
  }
  const outcome = await writePlan(ctx, plan, { dryRun });
  show({ kind: 'written', outcome });

  if (!cluster.ok || guard) {
    show({ kind: 'kept', why: 'not-deployed' });
    return EXIT.findings;
  }
  if (selection?.undecided) {
    show({ kind: 'kept', why: 'undecided' });
    return EXIT.findings;
  }
  if (stale.length === 0) {
    show({ kind: 'kept', why: 'nothing-stale' });
    return EXIT.ok;
  }
  // Stopped by a signal at any point of the deletion, the run says what was deleted and what was not.
  const progress = startProgress(stale);
  const forgetStop = cleanUpOnExit(() => show({ kind: 'stopped', progress }));
  const report = await deleteInBatches(kube, progress).finally(forgetStop);
  show({ kind: 'deleted', progress: report, ...(kube.context ? { context: kube.context } : {}) });
  if (report.failed.length || report.pending.length) return EXIT.findings;
  show({ kind: 'reissuing', ...(waitSeconds !== undefined ? { waitSeconds } : {}) });
  if (waitSeconds === undefined) return EXIT.ok;
  const waited = await waitForReissue(kube, report.deleted, waitSeconds * 1000);
  show({ kind: 'waited', waited });
  return waited.notReady.length === 0 ? EXIT.ok : EXIT.findings;
}

/** The name of the ClusterIssuer the rendering makes (what the live state was read by). */
function renderedIssuerName(renderings: Rendering[]): string | undefined {
  // The platform's issuer, not the `self-signed` ClusterIssuer every rendering also makes.
  const issuer = renderings[0]?.objects.find((o) => o.part === 'issuer');
  return issuer?.object.metadata.name;
}

/** `--wait-timeout`: how long `--wait` follows the Certificates (default 5 minutes). */
export function waitTimeout(value: string | undefined): number {
  if (value === undefined) return 300;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) {
    throw new UsageError(`--wait-timeout must be a number of seconds from 1 to 3600, not "${value}".`);
  }
  return seconds;
}
