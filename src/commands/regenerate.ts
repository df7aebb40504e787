import { resolve } from 'node:path';
import { describeWritten } from '../core/inventory/atomic-write.js';
import { EXIT, UsageError } from '../core/errors.js';
import { hasErrors } from '../core/findings.js';
import { readInventoryFile } from '../core/inventory/inventory.js';
import { detectProfile, neutralView } from '../core/config/platform-names.js';
import { answersNames } from '../core/config/answers.js';
import type { NamingProfile } from '../core/render/names.js';
import { firstLine, kubeAvailability, kubectl, kubectlJson, KubectlError, type KubectlOptions } from '../core/kube/kubectl.js';
import { DEFAULT_INVENTORY } from '../core/config/paths.js';
import {
  commandLine, deleteArgs, describeDeletion, PLATFORM_ISSUER, PLATFORM_NAMESPACES,
  selectStaleSecrets, summarizeSecrets, type DeletionReport, type StaleSelection,
} from '../core/setup/regenerate.js';
import { waitForReissue } from '../core/setup/regenerate-wait.js';
import { readLiveState } from '../core/areas/kube/issuer-drift.js';
import { compareWithCluster, renderingsToCompare, type LiveState, type Rendering } from '../core/render/drift.js';
import { specChangedAt, subjectOf, type IssuerIdentity } from '../core/setup/regenerate-issued.js';
import { escapeControl, escapeLine } from '../core/escape.js';
import { lineWriter } from '../core/net/http-log.js';
import { applyPlan, planSetup, readAnswers, reviewLines, type SetupPlan } from '../core/setup/plan.js';
import { vaultKeyringFromOptions } from '../core/inventory/vault-options.js';
import { openVaulted } from '../core/inventory/vaulted-values.js';
import { bool, list, str, type CommandContext } from '../core/run-context.js';

export async function run(ctx: CommandContext): Promise<number> {
  const { flags, cwd } = ctx;
  const log = lineWriter(ctx.stderr);
  const dryRun = bool(flags, 'dry-run');
  const yes = bool(flags, 'yes');
  const waitSeconds = bool(flags, 'wait') ? waitTimeout(str(flags, 'wait-timeout')) : undefined;
  const answersFile = str(flags, 'answers');
  if (!answersFile && !ctx.interactive) {
    throw new UsageError('cloudgate regenerate needs --answers FILE when it cannot ask questions (no terminal, or CI is set).',
      'Write the issuer answers as YAML (e.g. "cluster_issuer_type: ca" plus its variables) and run: cloudgate regenerate --answers issuer.yml --dry-run');
  }
  if (!dryRun && !yes && !ctx.interactive) {
    throw new UsageError('cloudgate regenerate deletes certificate secrets and needs a confirmation; without a terminal pass --yes.',
      'Run with --dry-run first to see the exact kubectl commands, then again with --yes.');
  }

  const inventoryPath = resolve(cwd, str(flags, 'inventory') ?? DEFAULT_INVENTORY);
  const current = await readInventoryFile(inventoryPath);
  if (!current.exists) {
    throw new UsageError(`There is no inventory at ${inventoryPath}; regenerate changes the issuer of an existing one.`,
      'Give its path with --inventory, or write one first with "cloudgate setup".');
  }
  const vault = (await vaultKeyringFromOptions(flags, ctx.env, cwd)) ?? (answersFile ? undefined : await offerVaultFor(ctx, current.values));
  const view = neutralView(current.values, inventoryPath, str(flags, 'names'));
  const opened = openVaulted(view.values, vault).values;
  const answers = answersFile ? await readAnswers(resolve(cwd, answersFile)) : await askIssuer(ctx, opened, view.profile);
  const plan = await planSetup({ answers, inventoryPath, vault, names: str(flags, 'names') });
  for (const line of reviewLines(plan, { regenerating: true })) log(line);
  if (hasErrors(plan.findings)) {
    log('Nothing was written and no secret was deleted: fix the errors above and run again.');
    return EXIT.usage;
  }

  const kube: KubectlOptions = { context: str(flags, 'context'), env: ctx.env };
  const issuerName = PLATFORM_ISSUER;
  const namespaces = list(flags, 'namespace').length ? list(flags, 'namespace') : PLATFORM_NAMESPACES;
  const protectedNames = [opened.cloud_helm_ingress_secret_name, plan.values.cloud_helm_ingress_secret_name]
    .filter((n): n is string => typeof n === 'string' && n !== '');

  const cluster = await kubeAvailability(kube);
  let selection: StaleSelection | undefined;
  let guard: string | undefined;
  if (cluster.ok) {
    kube.context = cluster.context;
    // Names neither the inventory, the answers nor --names tell: the cluster is compared with both renderings.
    const stated = view.stated || (answersNames(answers) ?? detectProfile(Object.keys(answers), 'the answers')) !== undefined;
    const renderings = renderingsToCompare({ values: plan.values, profile: plan.names, stated });
    const live = await readLiveState(kube, renderings.flatMap((r) => r.objects));
    guard = 'error' in live ? `Cannot read ${live.what} (${live.error}), so it is unknown whether the new issuer is deployed.` : notDeployed(plan, renderings, live);
    selection = await findSecrets(kube, namespaces, issuerName, protectedNames, currentIssuer(plan, 'error' in live ? undefined : live.issuer));
    showSelection(log, selection, issuerName, namespaces);
    if (guard) log(`! ${guard}`);
  } else {
    log(`! Cannot list the certificate secrets: ${cluster.reason}`);
  }

  if (dryRun) {
    if (plan.diff) ctx.stderr.write(escapeControl(plan.diff));
    ctx.stderr.write(escapeControl(plan.cluster.diff));
    // Only what the real run would delete is printed as commands: `--dry-run > delete.sh` must be safe.
    const wouldDelete = cluster.ok && !guard ? (selection?.stale ?? []) : [];
    for (const secret of wouldDelete) ctx.stdout.write(`${escapeLine(commandLine(secret, kube.context))}\n`);
    if (!cluster.ok || guard) {
      log('Dry run: nothing was written. The real run would write the inventory but delete no secret until the deployment has run (see above), and exit 1.');
      return EXIT.findings;
    }
    log(`Dry run: nothing was written${wouldDelete.length ? ' and no secret was deleted; the commands above would delete them' : ''}.`);
    return EXIT.ok;
  }

  const stale = guard ? [] : (selection?.stale ?? []);
  if (!yes) {
    const what = [plan.files.length ? 'write the inventory' : '', stale.length ? `delete ${stale.length} secret(s)` : ''].filter(Boolean).join(' and ');
    const { confirmOrCancel } = await import('../ui/plain/confirm.js');
    await confirmOrCancel(`${what ? what[0]!.toUpperCase() + what.slice(1) : 'Continue'}?`, 'Cancelled. Nothing was written or deleted.', ctx.stderr);
  }
  const written = await applyPlan(plan).catch((error: Error) => {
    throw error instanceof UsageError ? error : new UsageError(error.message, 'Check that the inventory folder exists and is writable by you.');
  });
  for (const file of written) {
    log(`Wrote ${describeWritten(file)}`);
  }
  if (written.length === 0) log(`The inventory ${inventoryPath} already has these values; it was not rewritten.`);

  if (!cluster.ok || guard) {
    log('No secret was deleted. Deploy the inventory (the platform\'s playbooks), then run "cloudgate regenerate" again with the same answers.');
    return EXIT.findings;
  }
  if (stale.length === 0) {
    log('No certificate secret to delete.');
    return EXIT.ok;
  }
  const report = await deleteSecrets(kube, stale);
  for (const line of describeDeletion(report, kube.context)) log(line);
  if (report.failed) return EXIT.findings;
  log('cert-manager now issues new certificates from the new issuer. Until each is issued, its endpoints serve the ingress controller\'s self-signed "Fake Certificate".');
  if (waitSeconds === undefined) {
    log('Follow them with: cloudgate doctor --only kube,tls (or run regenerate with --wait).');
    return EXIT.ok;
  }
  log(`Waiting up to ${waitSeconds} s for the certificates to be issued again...`);
  const waited = await waitForReissue(kube, report.deleted, waitSeconds * 1000);
  if (waited.ready.length) log(`Issued again (${waited.ready.length}): ${waited.ready.join(', ')}`);
  for (const { name, why } of waited.notReady) log(`! Not issued yet: ${name}: ${why}`);
  if (waited.notReady.length === 0) return EXIT.ok;
  log('Look at "kubectl describe certificate -n NAMESPACE NAME" and its CertificateRequest and Order; "cloudgate doctor --only kube,acme" checks the issuer.');
  return EXIT.findings;
}

/** `--wait-timeout`: how long `--wait` follows the Certificates (default 5 minutes). */
function waitTimeout(value: string | undefined): number {
  if (value === undefined) return 300;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) {
    throw new UsageError(`--wait-timeout must be a number of seconds from 1 to 3600, not "${value}".`);
  }
  return seconds;
}

/** The walkthrough's offer of the vault password, when the inventory keeps vaulted values. */
async function offerVaultFor(ctx: CommandContext, values: Record<string, unknown>) {
  const { offerVault } = await import('../ui/ink/setup/vault-offer.js');
  return offerVault(values, { input: process.stdin, output: ctx.stdout, cwd: ctx.cwd, env: ctx.env });
}

/** The issuer part of the walkthrough, starting from the inventory's values (--plain: line prompts). */
async function askIssuer(ctx: CommandContext, values: Record<string, unknown>, names: NamingProfile): Promise<Record<string, unknown>> {
  if (bool(ctx.flags, 'plain')) {
    const { askIssuerPlain } = await import('../ui/plain/setup.js');
    return askIssuerPlain(ctx, values, names);
  }
  const { askIssuer: ask } = await import('../ui/ink/setup/wizard.js');
  return ask(ctx, values, names);
}

async function findSecrets(kube: KubectlOptions, namespaces: string[], issuerName: string, protectedNames: string[], current: IssuerIdentity): Promise<StaleSelection> {
  const secrets = [];
  for (const namespace of namespaces) {
    // The list carries the secrets' data too: only names, types and annotations are kept, nothing else is printed.
    const list = await kubectlJson<unknown>(['get', 'secrets', `--namespace=${namespace}`], kube);
    secrets.push(...summarizeSecrets(list));
  }
  return selectStaleSecrets(secrets, { issuerName, protectedNames, current });
}

/**
 * Deleting before the platform runs with the new issuer lets cert-manager re-issue from the old one.
 * The live ClusterIssuer and its credential Secrets must be what the new inventory renders.
 */
function notDeployed(plan: SetupPlan, renderings: Rendering[], live: LiveState): string | undefined {
  if (plan.issuer === 'none') return undefined;
  if (!live.issuer) return `The ClusterIssuer "${PLATFORM_ISSUER}" does not exist in the cluster yet: deleting the secrets now would leave nothing to issue them again. Run the deployment first.`;
  const drift = compareWithCluster(renderings, live);
  if (drift.differences.length === 0) return undefined;
  const what = drift.live ? `the cluster runs ${drift.live}, the inventory says ${drift.rendered}` : drift.differences.join('; ');
  return `The ClusterIssuer "${PLATFORM_ISSUER}" in the cluster is not yet what the new inventory makes (${what}): deleting the secrets now would re-issue them from the old issuer. Run the deployment first.`;
}

/** What the current issuer issues, so that its own secrets are kept (a second run deletes nothing). */
function currentIssuer(plan: SetupPlan, liveIssuer: unknown): IssuerIdentity {
  const issuerSubject = plan.issuer === 'ca' ? subjectOf(plan.values.cluster_issuer_ca_certificate)
    : plan.issuer === 'self-signed' ? 'CN=selfsigned-ca' : undefined;
  return { ...(issuerSubject ? { issuerSubject } : {}), ...(liveIssuer ? { changedAt: specChangedAt(liveIssuer) } : {}) };
}

function showSelection(log: (line: string) => void, selection: StaleSelection, issuerName: string, namespaces: string[]): void {
  if (selection.stale.length === 0) {
    log(`No certificate secret issued by ClusterIssuer "${issuerName}" in ${namespaces.join(', ')}.`);
  } else {
    log(`Certificate secrets issued by ClusterIssuer "${issuerName}" (${selection.stale.length}), to delete so the new issuer issues them again:`);
    for (const s of selection.stale) log(`  ${s.namespace}/${s.name}${s.certificate ? `  (Certificate ${s.certificate})` : ''}`);
  }
  for (const k of selection.kept) log(`  kept ${k.namespace}/${k.name}: ${k.reason}`);
}

async function deleteSecrets(kube: KubectlOptions, stale: StaleSelection['stale']): Promise<DeletionReport> {
  const report: DeletionReport = { deleted: [], remaining: [] };
  for (let i = 0; i < stale.length; i++) {
    const secret = stale[i]!;
    let error: string | undefined;
    try {
      const result = await kubectl(deleteArgs(secret), kube);
      if (result.exitCode !== 0 && !/NotFound/.test(result.stderr)) error = firstLine(result.stderr) || `kubectl exit code ${result.exitCode}`;
    } catch (e) {
      error = e instanceof KubectlError ? e.message : (e as Error).message;
    }
    if (error) {
      report.failed = { secret, error };
      report.remaining = stale.slice(i + 1);
      return report;
    }
    report.deleted.push(secret);
  }
  return report;
}

