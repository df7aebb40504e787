/**
 * `cloudgate setup --plain`: the walkthrough's questions one line at a time, numbered choices, no
 * cursor movement or colour (dumb terminals, screen readers, serial consoles; ASCII with TERM=dumb).
 * Same flow, same checks as the Ink screens; the questions themselves are asked by questions.ts.
 */
import type { CommandContext } from '../../core/run-context.js';
import { runChecks } from '../../core/doctor/runner.js';
import type { DoctorReport } from '../../core/doctor/types.js';
import { CancelledError } from '../../core/errors.js';
import {
  FIX_ORDER,
  issuerUrlError,
  toPlanAnswers,
  type FlowOptions,
  type WizardAnswers,
} from '../../core/setup/wizard-flow.js';
import { goBack, startQuestions } from '../../core/setup/questions.js';
import { CANCELLED, exitCodeOf, issuerUrlSteps, outcomeText, type Outcome } from '../../core/setup/outcome.js';
import { reviewText } from '../../core/setup/review.js';
import { OFFER, openSession, type SetupOptions, type SetupSession } from '../../core/setup/session.js';
import { renderText } from '../text/text.js';
import { useColor } from '../color.js';
import { GROUP_TITLES } from '../../core/areas/index.js';
import { vaultOfferOn } from './vault-offer.js';
import { MAKE_VAULT_PASSWORD } from '../../core/setup/vault-choice.js';
import { askAll, askerFor, ioOf, shown, writeLines, type Asker, type PlainIO } from './questions.js';

/** Whether the output is a terminal's stream (one that says whether it is a TTY), as useColor reads it. */
const isTerminalStream = (stream: NodeJS.WritableStream): stream is NodeJS.WriteStream => 'isTTY' in stream;

interface PlainSession {
  initial: WizardAnswers;
  options: FlowOptions;
  session: SetupSession;
  io: PlainIO;
}

export async function runPlain(ctx: CommandContext, setup: SetupOptions, options: FlowOptions = {}): Promise<number> {
  const { session, initial, names } = await openSession(ctx, setup, vaultOfferOn(ctx));
  return plainSession({
    initial,
    options: { ...options, names, namespacesGiven: (setup.namespaces ?? []).length > 0 },
    session,
    io: ioOf(ctx),
  });
}

/** Runs the plain walkthrough; the exit code is 1 only when the cluster is not ready (see exitCodeOf). */
export async function plainSession({ initial, options, session, io }: PlainSession): Promise<number> {
  let state = startQuestions(initial, options);
  let outcome: Outcome | undefined;
  const asker = askerFor(io);
  const { prompt } = asker;
  let plainChosen = false;
  try {
    for (;;) {
      state = await askAll(state, asker);
      const prepare = () =>
        session.prepare(toPlanAnswers(state.answers), { fixOrder: state.answers[FIX_ORDER] === 'true' });
      let review = await prepare();
      // Secrets about to be written in plain text: the vault is offered first (once per walkthrough).
      if (review.plainText && session.useVault && !plainChosen) {
        if (await offerVaultPlain(session, asker, review.plainText)) review = await prepare();
        else plainChosen = true;
      }
      prompt.write('\n');
      writeLines(prompt, reviewText(review));
      const next = await prompt.select({
        message: review.blocked
          ? 'The settings have errors. What now?'
          : review.dryRun
            ? 'Finish the dry run?'
            : 'Write these files?',
        choices: [
          ...(review.blocked
            ? []
            : [{ value: 'write', name: review.dryRun ? 'Finish (nothing is written)' : 'Write' }]),
          { value: 'back', name: 'Back to the last question' },
          { value: 'cancel', name: 'Cancel (nothing is written)' },
        ],
      });
      if (next === 'cancel') throw new CancelledError(CANCELLED);
      if (next === 'back') {
        // From the review, back is the last question (never a cancel: there is one before the review).
        const back = goBack(state);
        if (back !== 'cancel') state = back;
        continue;
      }
      outcome = await session.write();
      writeLines(prompt, outcomeText(outcome));
      const discovery =
        outcome.offerDiscovery && session.discoveryChecks ? await offerDiscovery(session, asker, outcome) : undefined;
      return exitCodeOf({ ...outcome, discovery });
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError')
      throw new CancelledError(outcome?.cancelled ?? CANCELLED);
    throw error;
  } finally {
    prompt.close();
  }
}

/**
 * After keyless route53 is written: the same offer as the Ink walkthrough, with the doctor's text
 * report. Ctrl+C while the checks run (a signal outside a prompt) stops them and cancels.
 */
async function offerDiscovery(
  session: SetupSession,
  { io, prompt }: Asker,
  outcome: Outcome,
): Promise<DoctorReport | undefined> {
  prompt.write(
    '\nThe discovery and kube checks test the published OIDC issuer and the cluster (steps 1-4 of the prerequisites).\n',
  );
  if (!(await prompt.confirm({ message: OFFER, default: true }))) return undefined;
  for (;;) {
    const url = (
      await prompt.input({
        message: 'Public issuer URL (https://, as in --service-account-issuer)',
        validate: (v) => issuerUrlError(v) ?? true,
      })
    ).trim();
    const stop = new AbortController();
    const onInterrupt = () => stop.abort();
    // Kept (not `once`) until the run has settled: a kubectl child's own handler re-raises the
    // signal when no other listener is left, which would end the process without the cancel message.
    process.on('SIGINT', onInterrupt);
    try {
      const { checks, options } = await session.discoveryChecks!(url, stop.signal);
      prompt.write(shown(`Checking ${url} and the cluster... (Ctrl+C stops, ${outcome.standing})\n`));
      // Aborted, the run ends at once: the checks still running end as not run.
      const report = await runChecks(checks, options);
      if (stop.signal.aborted) throw new CancelledError(outcome.cancelled);
      prompt.write(
        renderText(report, {
          verbose: false,
          color: isTerminalStream(io.output) && useColor(io.output),
          ascii: io.ascii,
          titles: GROUP_TITLES,
        }),
      );
      prompt.write(
        shown(
          ['Next, with this issuer URL:', ...issuerUrlSteps(outcome, url).map((line) => `  ${line}`)].join('\n') + '\n',
        ),
      );
      return report;
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      prompt.write(shown(`x The checks could not start: ${error instanceof Error ? error.message : String(error)}\n`));
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  }
}

/** The vault offer of the walkthrough, line by line; true when a vault is now in use. */
async function offerVaultPlain(session: SetupSession, { prompt }: Asker, plainText: string): Promise<boolean> {
  prompt.write(`\n${shown(plainText)}\n`);
  const candidates = session.vaultCandidates?.() ?? [];
  for (;;) {
    const choice = await prompt.select({
      message: 'Write the secrets with Ansible Vault?',
      choices: [
        ...candidates.map((c) => ({
          value: c.id,
          name: `Use ${c.file}`,
          description: `The vault password Ansible uses here (${c.source})`,
        })),
        {
          value: OTHER_VAULT,
          name: 'Another vault password file...',
          description: candidates.length ? 'Give its path' : `None is configured here: ${MAKE_VAULT_PASSWORD[0]}`,
        },
        { value: PLAIN, name: 'No: write them in plain text (mode 0600)' },
      ],
    });
    if (choice === PLAIN) return false;
    const id =
      choice === OTHER_VAULT
        ? (
            await prompt.input({
              message: 'Vault password file (or LABEL@FILE)',
              validate: (v) => (v.trim() === '' ? 'Give the path of the vault password file.' : true),
            })
          ).trim()
        : choice;
    try {
      await session.useVault!(id);
      return true;
    } catch (error) {
      prompt.write(`x ${shown(error instanceof Error ? error.message : String(error))}\n`);
    }
  }
}

const OTHER_VAULT = 'other';
const PLAIN = 'plain';
