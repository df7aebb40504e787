import { resolve } from 'node:path';
import { readInventoryFile } from '../../../core/inventory/inventory.js';
import { DEFAULT_INVENTORY } from '../../../core/config/paths.js';
import { registerSecret } from '../../../core/secrets.js';
import { applyPlan, nextSteps, planSetup, type SetupPlan } from '../../../core/setup/plan.js';
import { VARIABLES, usesKeylessDns } from '../../../core/config/variables.js';
import { answersFromInventory, type WizardAnswers } from '../../../core/setup/wizard-flow.js';
import { bool, list, str, type CommandContext } from '../../../core/run-context.js';
import { EXIT } from '../../../core/errors.js';
import { vaultKeyringFromOptions } from '../../../core/inventory/vault-options.js';
import { openVaulted } from '../../../core/inventory/vaulted-values.js';
import { clusterLines } from '../../../core/render/review.js';
import { neutralView, profileLine, respellFinding } from '../../../core/config/platform-names.js';
import type { NamingProfile } from '../../../core/render/names.js';
import type { Outcome, Review, SetupServices } from './types.js';
import { offerVault } from './vault-offer.js';

const mode = (m: number) => m.toString(8).padStart(4, '0');

export function reviewOf(plan: SetupPlan): Review {
  return {
    inventoryPath: plan.inventoryPath,
    names: profileLine(plan.names),
    diff: plan.diff,
    files: plan.files.map((f) => ({ path: f.path, description: f.description, mode: f.mode, holdsSecret: f.holdsSecret })),
    findings: plan.findings.filter((f) => f.severity !== 'info').map((f) => respellFinding(f, plan.names)),
    issuerChange: plan.issuerChanged && plan.previousIssuer ? { from: plan.previousIssuer, to: plan.issuer } : undefined,
    cluster: { lines: clusterLines(plan.cluster), diff: plan.cluster.diff },
  };
}

/** The real side effects: plan with planSetup against the inventory, write with applyPlan. */
export async function setupServices(ctx: CommandContext): Promise<{ services: SetupServices; initial: WizardAnswers; names: NamingProfile }> {
  const inventoryPath = resolve(ctx.cwd, str(ctx.flags, 'inventory') ?? DEFAULT_INVENTORY);
  const file = await readInventoryFile(inventoryPath);
  const view = neutralView(file.values, inventoryPath, str(ctx.flags, 'names'));
  const current = { ...file, values: view.values };
  for (const row of VARIABLES) if (row.secret) registerSecret(current.values[row.name]);
  const vault = (await vaultKeyringFromOptions(ctx.flags, ctx.env, ctx.cwd))
    ?? (await offerVault(current.values, { input: process.stdin, output: ctx.stdout, cwd: ctx.cwd, env: ctx.env }));
  const manifest = str(ctx.flags, 'secret-manifest');
  const dryRun = bool(ctx.flags, 'dry-run');
  let plan: SetupPlan | undefined;
  const services: SetupServices = {
    cwd: ctx.cwd,
    dryRun,
    async prepare(answers) {
      plan = await planSetup({
        answers,
        inventoryPath,
        fixOrder: bool(ctx.flags, 'fix-order'),
        secretManifestPath: manifest ? resolve(ctx.cwd, manifest) : undefined,
        namespaces: list(ctx.flags, 'namespace'),
        vault,
        names: str(ctx.flags, 'names'),
      });
      return reviewOf(plan);
    },
    async write() {
      if (!plan) throw new Error('Nothing to write: the review was not prepared.');
      const next = nextSteps(plan);
      const keyless = usesKeylessDns(plan.values);
      if (services.discoveryCommand && keyless) {
        next.push(`${services.discoveryCommand}   # check the keyless prerequisites`);
      }
      if (dryRun) return { written: [], next, dryRun };
      const written = await applyPlan(plan);
      const applied = bool(ctx.flags, 'apply') ? await applyTlsSecret(plan, ctx) : undefined;
      return {
        written: written.map((w) => `${w.path} (${w.description}, mode ${mode(w.mode)}${w.linkTarget ? `; written through the link to ${w.linkTarget}, the link is kept` : ''}${w.backupPath ? `; previous version kept as ${w.backupPath}` : ''})`),
        // Once applied, "kubectl apply" is no next step any more.
        next: applied?.ok ? next.filter((step) => !step.startsWith('kubectl apply -f ')) : next,
        dryRun,
        applied,
        offerDiscovery: keyless,
      };
    },
    async discoveryChecks(issuerUrl, signal) {
      const [{ checksOf }, { doctorInput, runOptionsOf }] = await Promise.all([import('../../../core/areas/index.js'), import('../../../core/doctor/input.js')]);
      // As `cloudgate doctor --only discovery,kube --inventory <the inventory just written> --issuer-url URL`.
      const input = doctorInput({ ...ctx, flags: { inventory: inventoryPath, 'issuer-url': issuerUrl, 'ca-file': ctx.flags['ca-file'] } });
      const checks = await checksOf(input, ['discovery', 'kube']);
      return { checks, options: { ...runOptionsOf(input), signal } };
    },
  };
  // The checklist for keyless clouddnsb is needed only a few questions in: load it off the start-up path.
  import('../../../core/oidc/prerequisites.js').then(
    (m) => {
      services.prerequisites = (values) => m.clusteroidcPrerequisites(values);
      services.discoveryCommand = m.discoveryDoctorCommand();
    },
    () => undefined,
  );
  return { services, initial: answersFromInventory(openVaulted(current.values, vault).values), names: view.profile };
}

/** `--apply`: kubectl apply of the TLS Secret manifest just written (a supplied wildcard only). */
async function applyTlsSecret(plan: SetupPlan, ctx: CommandContext): Promise<Outcome['applied']> {
  if (!plan.supplied) {
    return { ok: false, message: '--apply: there is no TLS Secret manifest to apply (only a supplied wildcard certificate has one).' };
  }
  const { applyManifest } = await import('../../../core/setup/apply-manifest.js');
  const result = await applyManifest(plan.supplied.manifestPath, { env: ctx.env }, plan.supplied.namespaces);
  return { ok: result.status === 'applied', message: result.message, advice: result.advice };
}

/**
 * 1 when the files are written but the cluster is not ready: --apply could not apply, or the
 * discovery checks run after the write found failures (as the doctor would exit).
 */
export function exitCodeOf(outcome: Outcome): number {
  if (outcome.applied && !outcome.applied.ok) return EXIT.findings;
  return outcome.discovery && outcome.discovery.summary.fail > 0 ? EXIT.findings : EXIT.ok;
}
