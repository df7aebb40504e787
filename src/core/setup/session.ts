/**
 * One setup session, the same for every front-end: prepare(answers) plans the write and returns the
 * review; write() writes what was reviewed (atomically, all or nothing), applies the TLS Secret
 * manifest with --apply, and returns the outcome (plan-write.ts does both halves). The answers mode,
 * the Ink walkthrough and --plain only render these models; regenerate asks through the questions
 * alone (questions.ts) and plans and writes with plan-write.ts, without a session.
 *
 *   openSession(ctx, offerVault) -> the session for `cloudgate setup`'s flags, and the walkthrough's
 *                                   first answers (the inventory's values)
 *   session.prepare(answers)     -> Review   (nothing written)
 *   session.write()              -> Outcome  (refuses when the review had errors)
 *   session.discoveryChecks(url, signal) -> the doctor's discovery and kube checks against the inventory
 *                                   just written, stopped when `signal` aborts
 */
import { readInventoryFile } from '../inventory/inventory.js';
import { registerSecret } from '../secrets.js';
import { VARIABLES } from '../config/variables.js';
import { namesView, type Translation } from '../config/neutral-names.js';
import { vaultKeyringFromOptions, type VaultKeyring, type VaultOptions } from '../inventory/vault-options.js';
import { openVaulted } from '../inventory/vaulted-values.js';
import type { CommandContext } from '../run-context.js';
import type { RunOptions } from '../doctor/runner.js';
import { NO_NETWORK_OPTIONS } from '../config/network.js';
import type { Check } from '../doctor/types.js';
import type { NamingProfile } from '../config/variables.js';
import type { ValueSources } from '../config/value-sources.js';
import { keylessPrerequisites, discoveryDoctorCommand, type Prerequisite } from '../oidc/prerequisites.js';
import type { Answers, SetupPlan } from './plan.js';
import { answersFromInventory, type WizardAnswers } from './wizard-flow.js';
import type { Review } from './review.js';
import type { Outcome } from './outcome.js';
import { planAndReview, writePlan, type PlanSettings, type WriteSettings } from './plan-write.js';
import { keyringOf, vaultCandidates, type VaultCandidate } from './vault-choice.js';

export type { Prerequisite } from '../oidc/prerequisites.js';

/** The offer of the discovery checks after keyless route53 (auth kubernetes) is written. */
export const OFFER = 'Run the discovery checks now?';

export interface SessionSettings extends Omit<PlanSettings, 'regenerating'>, WriteSettings {
  /** The words the deployment reads (--names; the platform's by default). */
  profile?: NamingProfile;
  /** `--ca-file`: the discovery checks trust it, and the doctor command of the next steps names it. */
  caFile?: string;
}

/** `cloudgate setup`'s settings, from its flags (the vault password is opened by openSession). */
export interface SetupOptions extends Omit<SessionSettings, 'vault' | 'profile'> {
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
   * the walkthrough; `translated`: the neutral aliases an answers file used, `sources`: where its
   * values were read from (readAnswers).
   */
  prepare(
    answers: Answers,
    options?: { fixOrder?: boolean; translated?: Translation[]; sources?: ValueSources },
  ): Promise<Review>;
  /** Writes the last prepared plan (atomic, all or nothing) and reports what was done. */
  write(): Promise<Outcome>;
  /** The external steps keyless route53 (auth kubernetes) needs. */
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

export function createSession(ctx: CommandContext, settings: SessionSettings): SetupSession {
  let plan: SetupPlan | undefined;
  let vault = settings.vault;
  const session: SetupSession = {
    cwd: ctx.cwd,
    dryRun: settings.dryRun,
    prerequisites: (values) => keylessPrerequisites(values, { names: settings.profile }),
    discoveryCommand: discoveryDoctorCommand(),
    async prepare(answers, options = {}) {
      const prepared = await planAndReview({ ...settings, vault }, answers, options);
      plan = prepared.plan;
      return prepared.review;
    },
    async write() {
      if (!plan) throw new Error('Nothing to write: the review was not prepared.');
      return writePlan(ctx, plan, settings);
    },
    vaultCandidates: () => (vault ? [] : vaultCandidates(ctx.env, ctx.cwd, settings.inventoryPath)),
    async useVault(id) {
      vault = await keyringOf(id, ctx.env, ctx.cwd);
    },
    async discoveryChecks(issuerUrl, signal) {
      const [{ checksOf }, { doctorInput, doctorOptions, runOptionsOf }] = await Promise.all([
        import('../areas/index.js'),
        import('../doctor/input.js'),
      ]);
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
export async function openSession(
  ctx: CommandContext,
  options: SetupOptions,
  offerVault: VaultOffer,
): Promise<{ session: SetupSession; initial: WizardAnswers; names: NamingProfile }> {
  const { vault: vaultOptions, ...settings } = options;
  const file = await readInventoryFile(settings.inventoryPath);
  // The first answers are what the inventory means: a neutral alias in it is read (the review renames it).
  const view = namesView(file.values, settings.inventoryPath, settings.names);
  for (const row of VARIABLES) if (row.secret) registerSecret(view.meant[row.name]);
  const vault = (await vaultKeyringFromOptions(vaultOptions, ctx.env, ctx.cwd)) ?? (await offerVault(view.meant));
  const session = createSession(ctx, { ...settings, vault, profile: view.profile });
  return { session, initial: answersFromInventory(openVaulted(view.meant, vault).values), names: view.profile };
}
