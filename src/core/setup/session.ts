/**
 * One setup session, the same for every front-end: prepare(answers) plans the write and returns the
 * review; write() writes what was reviewed (atomically, all or nothing), applies the TLS Secret
 * manifest with --apply, and returns the outcome. The answers mode, the Ink walkthrough, --plain and
 * regenerate only render these models.
 *
 *   openSession(ctx, offerVault) -> the session for `cloudgate setup`'s flags, and the walkthrough's
 *                                   first answers (the inventory's values)
 *   session.prepare(answers)     -> Review   (nothing written)
 *   session.write()              -> Outcome  (refuses when the review had errors)
 *   session.discoveryChecks(url, signal) -> the doctor's discovery and kube checks against the inventory
 *                                   just written, stopped when `signal` aborts
 */
import { resolve } from 'node:path';
import { readInventoryFile } from '../inventory/inventory.js';
import { registerSecret } from '../secrets.js';
import { VARIABLES } from '../config/variables.js';
import { neutralView } from '../config/platform-names.js';
import { namesFromFolder, type NamesDetection } from '../config/naming-detect.js';
import { vaultKeyringFromOptions, type VaultKeyring, type VaultOptions } from '../inventory/vault-options.js';
import { openVaulted } from '../inventory/vaulted-values.js';
import type { CommandContext } from '../run-context.js';
import type { RunOptions } from '../doctor/runner.js';
import { NO_NETWORK_OPTIONS } from '../config/network.js';
import type { Check } from '../doctor/types.js';
import type { NamingProfile } from '../render/names.js';
import { clusteroidcPrerequisites, discoveryDoctorCommand, type Prerequisite } from '../oidc/prerequisites.js';
import { applyPlan, planSetup, type Answers, type SetupPlan } from './plan.js';
import { answersFromInventory, type WizardAnswers } from './wizard-flow.js';
import { reviewOf, type Review } from './review.js';
import { outcomeOf, type ApplyReport, type Outcome } from './outcome.js';
import { keyringOf, vaultCandidates, type VaultCandidate } from './vault-choice.js';

export type { Prerequisite } from '../oidc/prerequisites.js';

/** The offer of the discovery checks after keyless clouddnsb is written. */
export const OFFER = 'Run the discovery checks now?';

export interface SessionSettings {
  inventoryPath: string;
  dryRun: boolean;
  /** `--apply`: kubectl apply the TLS Secret manifest of a supplied wildcard once written. */
  apply?: boolean;
  fixOrder?: boolean;
  secretManifestPath?: string;
  /** Namespaces of the TLS Secret of a supplied wildcard. */
  namespaces?: string[];
  /** `--names`. */
  names?: string;
  /** The variable names the inventory turned out to use (--names, or detected). */
  profile?: NamingProfile;
  vault?: VaultKeyring;
  /** The review of `cloudgate regenerate`, which deletes the old certificate secrets itself. */
  regenerating?: boolean;
  /** `--ca-file`: the discovery checks trust it, and the doctor command of the next steps names it. */
  caFile?: string;
}

/** `cloudgate setup`'s settings, from its flags (the vault password is opened by openSession). */
export interface SetupOptions extends Omit<SessionSettings, 'vault' | 'profile' | 'regenerating'> {
  vault: VaultOptions;
}

/** The doctor's checks for the discovery offer, ready for runChecks (the signal is in the options). */
export interface DiscoveryRun {
  checks: Check[];
  options: RunOptions;
}

export interface SetupSession {
  /** File answers are relative to it. */
  cwd: string;
  dryRun: boolean;
  /**
   * Plans the write from the answers (planSetup's keys); nothing is written. `fixOrder`: accepted in
   * the walkthrough; `answersProfile`: the names an answers file was written with (readAnswers).
   */
  prepare(answers: Answers, options?: { fixOrder?: boolean; answersProfile?: NamingProfile }): Promise<Review>;
  /** Writes the last prepared plan (atomic, all or nothing) and reports what was done. */
  write(): Promise<Outcome>;
  /** The external steps keyless clouddnsb needs. */
  prerequisites?(values: Record<string, unknown>): Prerequisite[];
  /** The doctor run that checks those steps. */
  discoveryCommand?: string;
  /**
   * The doctor's discovery and kube checks against the inventory just written, for this public
   * issuer URL. Aborting `signal` stops the run: the checks still running end as not run at once.
   */
  discoveryChecks?(issuerUrl: string, signal: AbortSignal): Promise<DiscoveryRun>;
  /** No vault password was given: the vault passwords Ansible already uses here, for the offer before plain-text secrets. */
  vaultCandidates?(): VaultCandidate[];
  /** Writes every secret vaulted with this vault id (`LABEL@FILE`) or password file from now on. */
  useVault?(id: string): Promise<void>;
}

export interface Plans {
  /** The plan of the last prepare (regenerate reads the values and the cluster objects from it). */
  last(): SetupPlan | undefined;
}

export function createSession(ctx: CommandContext, settings: SessionSettings): SetupSession & Plans {
  let plan: SetupPlan | undefined;
  let vault = settings.vault;
  const session: SetupSession & Plans = {
    cwd: ctx.cwd,
    dryRun: settings.dryRun,
    last: () => plan,
    prerequisites: (values) => clusteroidcPrerequisites(values, { names: settings.profile }),
    discoveryCommand: discoveryDoctorCommand(),
    async prepare(answers, options = {}) {
      plan = await planSetup({
        answers,
        inventoryPath: settings.inventoryPath,
        fixOrder: settings.fixOrder || options.fixOrder,
        secretManifestPath: settings.secretManifestPath,
        namespaces: settings.namespaces,
        vault,
        names: settings.names,
        answersProfile: options.answersProfile,
      });
      return reviewOf(plan, { dryRun: settings.dryRun, regenerating: settings.regenerating });
    },
    async write() {
      if (!plan) throw new Error('Nothing to write: the review was not prepared.');
      const caFile = settings.caFile !== undefined ? resolve(ctx.cwd, settings.caFile) : undefined;
      const common = { facts: { caFile, caFromEnvironment: Boolean(ctx.env.OS_CACERT) } };
      if (settings.dryRun) return outcomeOf(plan, { ...common, dryRun: true, written: [] });
      const written = await applyPlan(plan);
      // An unchanged manifest is not rewritten, but --apply still applies it (a rerun after a failed apply).
      const applied = settings.apply ? await applySecret(plan, ctx.env) : undefined;
      return outcomeOf(plan, { ...common, dryRun: false, written, applied });
    },
    vaultCandidates: () => (vault ? [] : vaultCandidates(ctx.env, ctx.cwd, settings.inventoryPath)),
    async useVault(id) {
      vault = await keyringOf(id, ctx.env, ctx.cwd);
    },
    async discoveryChecks(issuerUrl, signal) {
      const [{ checksOf }, { doctorInput, doctorOptions, runOptionsOf }] = await Promise.all([import('../areas/index.js'), import('../doctor/input.js')]);
      // As `cloudgate doctor --only discovery,kube --inventory <the inventory just written> --issuer-url URL`.
      const options = doctorOptions(settings.inventoryPath, {
        given: { issuer_url: issuerUrl },
        network: { ...NO_NETWORK_OPTIONS, caFile: settings.caFile },
      });
      const input = await doctorInput(options, ctx);
      const checks = await checksOf(input, ['discovery', 'kube']);
      return { checks, options: { ...runOptionsOf(input), signal } };
    },
  };
  return session;
}

/** Asks for the vault password when the inventory keeps vaulted values (a front-end's prompt). */
export type VaultOffer = (values: Record<string, unknown>) => Promise<VaultKeyring | undefined>;

/**
 * The session of `cloudgate setup` on a terminal: reads the inventory (its values are the first
 * answers), takes the vault password from the flags or the front-end's offer.
 */
export async function openSession(ctx: CommandContext, options: SetupOptions, offerVault: VaultOffer): Promise<{ session: SetupSession; initial: WizardAnswers; names: NamingProfile; askNames?: NamesDetection }> {
  const { vault: vaultOptions, ...settings } = options;
  const file = await readInventoryFile(settings.inventoryPath);
  const view = neutralView(file.values, settings.inventoryPath, settings.names);
  for (const row of VARIABLES) if (row.secret) registerSecret(view.values[row.name]);
  const vault = (await vaultKeyringFromOptions(vaultOptions, ctx.env, ctx.cwd)) ?? (await offerVault(view.values));
  const session = createSession(ctx, { ...settings, vault, profile: view.profile });
  // A new inventory that says nothing of its names (and no --names): the walkthrough asks, offering what the folder tells.
  const askNames = !settings.names && !view.stated && !VARIABLES.some((row) => row.name in view.values) ? await namesFromFolder(settings.inventoryPath) : undefined;
  return { session, initial: answersFromInventory(openVaulted(view.values, vault).values), names: askNames?.profile ?? view.profile, ...(askNames ? { askNames } : {}) };
}

const NO_MANIFEST = '--apply: there is no TLS Secret manifest to apply (only a supplied wildcard certificate, wildcard_certificate_file and wildcard_key_file, has one).';

/** `--apply`: kubectl apply of the TLS Secret manifest on disk (written now, or unchanged from before). */
async function applySecret(plan: SetupPlan, env: NodeJS.ProcessEnv): Promise<ApplyReport> {
  // Nothing failed: there is nothing to apply. Said, and no reason for exit 1.
  if (!plan.supplied) return { ok: true, message: NO_MANIFEST };
  const { applyManifest } = await import('./apply-manifest.js');
  const result = await applyManifest(plan.supplied.manifestPath, { env }, plan.supplied.namespaces);
  return { ok: result.status === 'applied', message: result.message, ...(result.advice ? { advice: result.advice } : {}) };
}
