/**
 * `cloudgate setup --plain`: the walkthrough's questions one line at a time, numbered choices, no
 * cursor movement or colour (dumb terminals, screen readers, serial consoles; ASCII with TERM=dumb).
 * Same flow, same checks as the Ink screens.
 */
import { LinePrompt } from './line-prompt.js';
import type { CommandContext } from '../../core/run-context.js';
import { runChecks } from '../../core/doctor/runner.js';
import type { DoctorReport } from '../../core/doctor/types.js';
import { CancelledError } from '../../core/errors.js';
import type { Finding } from '../../core/findings.js';
import { escapeControl } from '../../core/escape.js';
import { redact, registerSecret } from '../../core/secrets.js';
import {
  FIX_ORDER, answersFromInventory, checkFileInput, secretInput, type FileCheck, currentStep, defaultFor, initialState, isOptional, isReview, issuerUrlError, reduce, stepError,
  toPlanAnswers, type AnswerValue, type FlowOptions, type Step, type WizardAnswers, type WizardState,
} from '../../core/setup/wizard-flow.js';
import { CANCELLED, CANCELLED_REGENERATE, exitCodeOf, issuerUrlSteps, outcomeText, type Outcome } from '../../core/setup/outcome.js';
import { findingLines, reviewText } from '../../core/setup/review.js';
import { OFFER, openSession, type SetupOptions, type SetupSession } from '../../core/setup/session.js';
import { renderText } from '../text/text.js';
import { useColor } from '../color.js';
import { GROUP_TITLES } from '../../core/areas/index.js';
import { vaultOfferOn } from './vault-offer.js';
import { MAKE_VAULT_PASSWORD } from '../../core/setup/vault-choice.js';
import type { NamingProfile } from '../../core/render/names.js';

/** Typed at a text question, or picked in a list: go back one question. */
export const BACK = '<';
const BACK_CHOICE = { value: BACK, name: '< Back', description: 'return to the previous question (answers are kept)' };

export interface PlainIO {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** File answers are relative to it. */
  cwd: string;
  /** TERM=dumb: only ASCII is written. */
  ascii?: boolean;
}

/** The prompts of one session, on its input and output. */
interface Asker {
  io: PlainIO;
  prompt: LinePrompt;
}

function askerFor(io: PlainIO): Asker {
  return { io, prompt: new LinePrompt({ input: io.input, output: io.output, ascii: io.ascii }) };
}

const ioOf = (ctx: CommandContext): PlainIO => ({ input: process.stdin, output: ctx.stdout, cwd: ctx.cwd, ascii: ctx.env.TERM === 'dumb' });

interface PlainSession {
  initial: WizardAnswers;
  options: FlowOptions;
  session: SetupSession;
  io: PlainIO;
}

export async function runPlain(ctx: CommandContext, setup: SetupOptions, options: FlowOptions = {}): Promise<number> {
  const { session, initial, names, askNames } = await openSession(ctx, setup, vaultOfferOn(ctx));
  return plainSession({ initial, options: { ...options, names, askNames, namespacesGiven: (setup.namespaces ?? []).length > 0 }, session, io: ioOf(ctx) });
}

/** Asks only the issuer part in plain mode and returns the answers for planSetup. */
export async function askIssuerPlain(ctx: CommandContext, inventoryValues: Record<string, unknown>, names?: NamingProfile): Promise<Record<string, unknown>> {
  const asker = askerFor(ioOf(ctx));
  try {
    const state = await askAll(initialState(answersFromInventory(inventoryValues), { only: 'issuer', names }), asker);
    return toPlanAnswers(state.answers);
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new CancelledError(CANCELLED_REGENERATE);
    throw error;
  } finally {
    asker.prompt.close();
  }
}

/** Runs the plain walkthrough; the exit code is 1 only when the cluster is not ready (see exitCodeOf). */
export async function plainSession({ initial, options, session, io }: PlainSession): Promise<number> {
  let state = initialState(initial, options);
  let outcome: Outcome | undefined;
  const asker = askerFor(io);
  const { prompt } = asker;
  let plainChosen = false;
  try {
    for (;;) {
      state = await askAll(state, asker);
      const prepare = () => session.prepare(toPlanAnswers(state.answers), { fixOrder: state.answers[FIX_ORDER] === 'true' });
      let review = await prepare();
      // Secrets about to be written in plain text: the vault is offered first (once per walkthrough).
      if (review.plainText && session.useVault && !plainChosen) {
        if (await offerVaultPlain(session, asker, review.plainText)) review = await prepare();
        else plainChosen = true;
      }
      prompt.write('\n');
      writeLines(prompt, reviewText(review));
      const next = await prompt.select({
        message: review.blocked ? 'The settings have errors. What now?' : review.dryRun ? 'Finish the dry run?' : 'Write these files?',
        choices: [
          ...(review.blocked ? [] : [{ value: 'write', name: review.dryRun ? 'Finish (nothing is written)' : 'Write' }]),
          { value: 'back', name: 'Back to the last question' },
          { value: 'cancel', name: 'Cancel (nothing is written)' },
        ],
      });
      if (next === 'cancel') throw new CancelledError(CANCELLED);
      if (next === 'back') {
        state = reduce(state, { type: 'back' });
        continue;
      }
      outcome = await session.write();
      writeLines(prompt, outcomeText(outcome));
      const discovery = outcome.offerDiscovery && session.discoveryChecks ? await offerDiscovery(session, asker, outcome) : undefined;
      return exitCodeOf({ ...outcome, discovery });
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new CancelledError(outcome?.cancelled ?? CANCELLED);
    throw error;
  } finally {
    prompt.close();
  }
}

/**
 * After keyless clouddnsb is written: the same offer as the Ink walkthrough, with the doctor's text
 * report. Ctrl+C while the checks run (a signal outside a prompt) stops them and cancels.
 */
async function offerDiscovery(session: SetupSession, { io, prompt }: Asker, outcome: Outcome): Promise<DoctorReport | undefined> {
  prompt.write('\nThe discovery and kube checks test the published OIDC issuer and the cluster (steps 1-4 of the prerequisites).\n');
  if (!(await prompt.confirm({ message: OFFER, default: true }))) return undefined;
  for (;;) {
    const url = (await prompt.input({ message: 'Public issuer URL (https://, as in --service-account-issuer)', validate: (v) => issuerUrlError(v) ?? true })).trim();
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
      prompt.write(renderText(report, { verbose: false, color: useColor(io.output as NodeJS.WriteStream), ascii: io.ascii, titles: GROUP_TITLES }));
      prompt.write(shown(['Next, with this issuer URL:', ...issuerUrlSteps(outcome, url).map((line) => `  ${line}`)].join('\n') + '\n'));
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
        ...candidates.map((c) => ({ value: c.id, name: `Use ${c.file}`, description: `The vault password Ansible uses here (${c.source})` })),
        { value: OTHER_VAULT, name: 'Another vault password file...', description: candidates.length ? 'Give its path' : `None is configured here: ${MAKE_VAULT_PASSWORD[0]}` },
        { value: PLAIN, name: 'No: write them in plain text (mode 0600)' },
      ],
    });
    if (choice === PLAIN) return false;
    const id = choice === OTHER_VAULT
      ? (await prompt.input({ message: 'Vault password file (or LABEL@FILE)', validate: (v) => (v.trim() === '' ? 'Give the path of the vault password file.' : true) })).trim()
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

async function askAll(start: WizardState, asker: Asker): Promise<WizardState> {
  let state = start;
  while (!isReview(state)) {
    const step = currentStep(state)!;
    asker.prompt.write(`\n${step.section}: ${step.help}\n`);
    const asked = await ask(step, state, asker);
    // Some answers bring others: a TSIG key file's name and algorithm, a chain to put in order.
    const { value, also } = typeof asked === 'object' ? asked : { value: asked, also: undefined };
    if (value === BACK) {
      if (state.index === 0) throw new CancelledError(CANCELLED);
      state = reduce(state, { type: 'back' });
    } else {
      state = reduce(state, { type: 'answer', value, also });
    }
  }
  return state;
}

type Asked = AnswerValue | { value: AnswerValue; also?: WizardAnswers };

async function ask(step: Step, state: WizardState, asker: Asker): Promise<Asked> {
  const { prompt, io } = asker;
  const { answers } = state;
  const back = state.index > 0 ? ` (${BACK} to go back)` : '';
  const title = `${step.title}${isOptional(step, answers) ? ' (optional)' : ''}`;
  const existing = answers[step.id];
  const existingText = typeof existing === 'string' ? existing : existing === undefined ? '' : String(existing);
  if (step.kind === 'select') {
    const preselected = defaultFor(step, answers);
    for (;;) {
      const value = await prompt.select({
        message: title,
        choices: [...(step.choices ?? []).map((c) => ({ value: c.value, name: c.label, description: c.help })), ...(state.index > 0 ? [BACK_CHOICE] : [])],
        default: preselected === undefined ? undefined : String(preselected),
      });
      const error = value === BACK ? undefined : stepError(step, value, answers);
      if (!error) return value;
      prompt.write(`x ${shown(error)}\n`);
    }
  }
  if (step.kind === 'secret') {
    const keep = existingText !== '';
    // The TSIG secret may be the key file's path: its secret is kept, its name and algorithm answered.
    const read = (v: string) => (v === '' && keep ? { value: existingText } : secretInput(step, v, io.cwd));
    const value = await prompt.password({
      message: `${title}${keep ? ' (Enter keeps the current value)' : ''}${back}`,
      validate: (v) => {
        if (v === BACK) return true;
        const got = read(v);
        return got.error ?? stepError(step, got.value ?? '', { ...answers, ...got.also }) ?? true;
      },
    });
    registerSecret(value);
    if (value === BACK) return BACK;
    const got = read(value);
    return { value: got.value ?? '', also: got.also };
  }
  if (step.kind === 'file') return askFile(step, state, asker, title + back, existingText);
  const initial = defaultFor(step, answers);
  const value = await prompt.input({
    message: `${title}${back}`,
    default: initial === undefined ? undefined : String(initial),
    validate: (v) => v.trim() === BACK || (stepError(step, v, answers) ?? true),
  });
  return value.trim();
}

async function askFile(step: Step, state: WizardState, { io, prompt }: Asker, message: string, existing: string): Promise<Asked> {
  const inline = existing.includes('-----BEGIN');
  for (;;) {
    let findings: Finding[] = [];
    let stored: string | undefined;
    let offer: FileCheck['offer'];
    const typed = await prompt.input({
      message: `${message}${inline ? ' (Enter keeps the PEM now in the inventory)' : ''}`,
      default: inline || existing === '' ? undefined : existing.replace(/^file:/, ''),
      validate: (v) => {
        const path = v.trim();
        if (path === BACK) return true;
        if (path === '') return inline || !step.required ? true : `${step.title}: give the path of a PEM file.`;
        const result = checkFileInput(step, path, state.answers, io.cwd);
        findings = result.findings;
        stored = result.value;
        offer = result.offer;
        const error = findings.find((f) => f.severity === 'error');
        return error ? redact([error.message, error.advice].filter(Boolean).join(' ')) : true;
      },
    });
    const path = typed.trim();
    if (path === BACK) return BACK;
    if (path === '') return inline ? existing : '';
    if (findings.length === 0) return stored ?? path;
    printFindings(findings, prompt);
    // A fix offered in place (a chain in the wrong order): accepted, the answers it brings are added.
    if (offer && await prompt.confirm({ message: offer.question, default: true })) return { value: stored ?? path, also: offer.also };
    if (!offer && await prompt.confirm({ message: 'Accept these warnings and continue?', default: false })) return stored ?? path;
  }
}

/** What is printed between prompts quotes files and servers: redacted, control characters escaped. */
function shown(text: string): string {
  return escapeControl(redact(text));
}

function writeLines(out: { write(text: string): unknown }, lines: string[]): void {
  out.write(shown(`${lines.join('\n')}\n`));
}

function printFindings(findings: Finding[], out: { write(text: string): unknown }): void {
  writeLines(out, findingLines(findings));
}
