/**
 * What a setup session did, as every front-end reports it: the files written (with their links and
 * backups), what `--apply` did in each namespace, the next steps, whether to offer the discovery checks,
 * the exit code, and what a cancel from here on says. The wording is decided here once.
 */
import { describeWritten, type WrittenFile } from '../inventory/atomic-write.js';
import { EXIT } from '../errors.js';
import { usesKeylessDns } from '../config/variables.js';
import type { DoctorReport } from '../doctor/types.js';
import type { SetupPlan } from './plan.js';
import { regenerateStep } from './review.js';
import { shellQuote } from '../shell-quote.js';
import { withCommand } from '../self-command.js';
import { discoveryDoctorCommand } from '../oidc/prerequisites.js';

/** Cancelled before anything was written. */
export const CANCELLED = 'Cancelled. Nothing was written.';
/** Cancelled after the write (at the discovery checks). */
export const CANCELLED_AFTER_WRITE = 'Cancelled. The inventory was already written; there was nothing more to write.';
/** Cancelled after a review that wrote nothing (a dry run, or nothing changed). */
export const CANCELLED_NOTHING_WRITTEN = 'Cancelled. Nothing was written (nothing needed writing).';
/** Cancelled in `cloudgate regenerate`, before it wrote or deleted anything. */
export const CANCELLED_REGENERATE = 'Cancelled. Nothing was written or deleted.';

export const DRY_RUN_DONE = 'Dry run: nothing was written.';
export const UNCHANGED = 'Nothing to write: the files already hold these settings.';

export interface ApplyReport {
  /** False when the manifest could not be applied (no kubectl, kubectl failed): setup exits 1. */
  ok: boolean;
  /** What kubectl did, naming each namespace; or why nothing was applied. */
  message: string;
  advice?: string;
}

export interface Outcome {
  dryRun: boolean;
  /** Each file written: path, mode, the link it was written through, where the previous version is kept. */
  written: string[];
  /** `Written:`, or why nothing was (dry run, nothing changed). */
  headline: string;
  /** `--apply`: what kubectl did with the TLS Secret manifest. */
  applied?: ApplyReport;
  next: string[];
  /** Keyless route53 (auth kubernetes) is in the inventory on disk: the discovery checks are offered. */
  offerDiscovery: boolean;
  /** Where things stand if the operator stops now, for key hints: "the inventory is already written". */
  standing: string;
  /** The message of a cancel from here on. */
  cancelled: string;
  /** The discovery checks the operator chose to run after the write. */
  discovery?: DoctorReport;
  /** The inventory written: the steps that need the issuer URL name it once the operator gives the URL. */
  inventoryPath: string;
  /** How the operator runs cloudgate here: the next steps start with it. */
  command?: string;
}

export interface OutcomeInput {
  dryRun: boolean;
  written: WrittenFile[];
  applied?: ApplyReport;
  /** Facts the next steps use: the issuer URL, the CA file the doctor must trust. */
  facts?: Pick<NextStepFacts, 'issuerUrl' | 'caFile' | 'caFromEnvironment'>;
  /** How the operator runs cloudgate here (`cloudgate`, or the program's path when it is not on PATH). */
  command?: string;
}

export function outcomeOf(plan: SetupPlan, input: OutcomeInput): Outcome {
  const wrote = !input.dryRun && input.written.length > 0;
  const keyless = usesKeylessDns(plan.values);
  return {
    dryRun: input.dryRun,
    written: input.written.map(describeWritten),
    headline: input.dryRun ? DRY_RUN_DONE : wrote ? 'Written:' : UNCHANGED,
    ...(input.applied ? { applied: input.applied } : {}),
    next: nextSteps(plan, {
      ...input.facts,
      dryRun: input.dryRun,
      applied: input.applied?.ok === true && plan.supplied !== undefined,
    }).map((line) => withCommand(line, input.command ?? 'cloudgate')),
    command: input.command ?? 'cloudgate',
    // A dry run wrote no inventory for the checks to read.
    offerDiscovery: keyless && !input.dryRun,
    standing: wrote ? 'the inventory is already written' : 'nothing was written',
    cancelled: wrote ? CANCELLED_AFTER_WRITE : CANCELLED_NOTHING_WRITTEN,
    inventoryPath: plan.inventoryPath,
  };
}

export interface NextStepFacts {
  /** --apply already applied the TLS Secret manifest. */
  applied?: boolean;
  dryRun?: boolean;
  /** The public issuer URL of keyless DNS credentials, once the operator gave it. */
  issuerUrl?: string;
  /** A CA file the doctor must trust (setup's --ca-file, e.g. the private CA of an ACME server). */
  caFile?: string;
  /** OS_CACERT is set: the doctor trusts it without a flag. */
  caFromEnvironment?: boolean;
}

/**
 * What to do next: each line is a command that works as printed (paths quoted for the shell), with
 * an optional `# why`; a line starting with `#` is a step that is no command of cloudgate's (the
 * deployment), or a command that needs a value setup does not know, said as such.
 */
export function nextSteps(plan: SetupPlan, facts: NextStepFacts = {}): string[] {
  // Nothing was written: every step below would act on the inventory as it was.
  if (facts.dryRun)
    return ['# Dry run: nothing was written. Run the same command without --dry-run to write the files.'];
  const q = shellQuote;
  const steps: string[] = [];
  const supplied = plan.supplied;
  if (supplied && !facts.applied)
    steps.push(
      `kubectl apply -f ${q(supplied.manifestPath)}   # create the TLS secret ${supplied.secretName} in ${supplied.namespaces.join(', ')}`,
    );
  steps.push("# Then run your deployment (the platform's Ansible playbooks) to apply the inventory.");
  // regenerate refuses until the deployment has put the new issuer in place: it comes after it.
  if (plan.issuerChanged && plan.previousIssuer) steps.push(regenerateStep(plan.inventoryPath, plan.previousIssuer));
  const keyless = usesKeylessDns(plan.values);
  const inventory = `--inventory ${q(plan.inventoryPath)}`;
  if (keyless) {
    steps.push(
      facts.issuerUrl
        ? `cloudgate oidc ${inventory} --issuer-url ${q(facts.issuerUrl)}   # what keyless DNS credentials (route53 auth kubernetes) need you to create`
        : `# cloudgate oidc ${inventory} --issuer-url URL   # with your cluster's public OIDC issuer URL: what keyless DNS credentials need you to create`,
    );
  }
  const doctor = [`cloudgate doctor ${inventory}`];
  // A file put in order for the manifest is still out of order on disk: the doctor would only say so again.
  if (supplied && !supplied.reordered)
    doctor.push(`--certificate ${q(supplied.certificateFile)} --key ${q(supplied.keyFile)}`);
  if (facts.caFile) doctor.push(`--ca-file ${q(facts.caFile)}`);
  steps.push(
    doctor.join(' ') + (supplied && !supplied.reordered ? '   # checks the supplied certificate and key too' : ''),
  );
  const privateCa = plan.values.cluster_issuer_acme_private_ca === true && plan.issuer === 'acme';
  if (privateCa && !facts.caFile && !facts.caFromEnvironment) {
    steps.push(
      '# The ACME server uses a private CA: add --ca-file PEM (that CA) to the doctor command so that its acme checks trust it.',
    );
  }
  if (keyless && facts.issuerUrl)
    steps.push(`${discoveryDoctorCommand(facts.issuerUrl)} ${inventory}   # check the keyless prerequisites`);
  if (supplied)
    steps.push('# Renew the supplied certificate yourself before it expires: the platform never renews it.');
  return steps;
}

/** The keyless steps once the operator gave the public issuer URL (after the discovery checks). */
export function issuerUrlSteps(
  outcome: Pick<Outcome, 'inventoryPath'> & { command?: string },
  issuerUrl: string,
): string[] {
  const inventory = `--inventory ${shellQuote(outcome.inventoryPath)}`;
  return [
    `cloudgate oidc ${inventory} --issuer-url ${shellQuote(issuerUrl)}   # what keyless DNS credentials (route53 auth kubernetes) need you to create`,
    `${discoveryDoctorCommand(shellQuote(issuerUrl))} ${inventory}   # the same checks again, once those exist`,
  ].map((line) => withCommand(line, outcome.command ?? 'cloudgate'));
}

/** What was written (or why nothing was), as lines. */
export function writtenText(outcome: Outcome): string[] {
  return [outcome.headline, ...outcome.written.map((w) => `  ${w}`)];
}

/** The outcome as lines, for the line front-ends; not yet escaped (the writer escapes each line). */
export function outcomeText(outcome: Outcome): string[] {
  const lines = writtenText(outcome);
  if (outcome.applied) {
    lines.push(`${outcome.applied.ok ? '' : 'x '}${outcome.applied.message}`);
    if (outcome.applied.advice) lines.push(`  -> ${outcome.applied.advice}`);
  }
  if (outcome.next.length > 0) lines.push('Next:', ...outcome.next.map((n) => `  ${n}`));
  return lines;
}

/**
 * 1 when the files are written but the cluster is not ready: --apply could not apply, or the
 * discovery checks run after the write found failures (as the doctor would exit).
 */
export function exitCodeOf(outcome: Outcome): number {
  if (outcome.applied && !outcome.applied.ok) return EXIT.findings;
  return outcome.discovery && outcome.discovery.summary.fail > 0 ? EXIT.findings : EXIT.ok;
}
