/**
 * `cloudgate setup --plain`: the walkthrough's questions one line at a time, numbered choices, no
 * cursor movement or colour (dumb terminals, screen readers, serial consoles; ASCII with TERM=dumb).
 * Same flow, same checks as the Ink screens.
 */
import { LinePrompt } from './line-prompt.js';
import { list, type CommandContext } from '../../core/run-context.js';
import { runChecks } from '../../core/doctor/runner.js';
import type { DoctorReport } from '../../core/doctor/types.js';
import { CancelledError } from '../../core/errors.js';
import { hasErrors, type Finding } from '../../core/findings.js';
import { escapeControl } from '../../core/escape.js';
import { redact, registerSecret } from '../../core/secrets.js';
import {
  answersFromInventory, checkFileInput, currentStep, defaultFor, initialState, isOptional, isReview, issuerUrlError, reduce, stepError,
  toPlanAnswers, type AnswerValue, type FlowOptions, type Step, type WizardAnswers, type WizardState,
} from '../../core/setup/wizard-flow.js';
import { renderText, useColor } from '../text/text.js';
import { OFFER } from '../ink/setup/DiscoveryOffer.js';
import { UNCHANGED } from '../ink/setup/FinalScreen.js';
import { CANCELLED, CANCELLED_AFTER_WRITE, CANCELLED_NOTHING_WRITTEN, cancelledAfter } from '../ink/setup/SetupApp.js';
import { exitCodeOf, setupServices } from '../ink/setup/services.js';
import type { Review, SetupServices } from '../ink/setup/types.js';
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

interface Session {
  initial: WizardAnswers;
  options: FlowOptions;
  services: SetupServices;
  io: PlainIO;
}

export async function runPlain(ctx: CommandContext, options: FlowOptions = {}): Promise<number> {
  const { services, initial, names } = await setupServices(ctx);
  return plainSession({ initial, options: { ...options, names, namespacesGiven: list(ctx.flags, 'namespace').length > 0 }, services, io: ioOf(ctx) });
}

/** Asks only the issuer part in plain mode and returns the answers for planSetup. */
export async function askIssuerPlain(ctx: CommandContext, inventoryValues: Record<string, unknown>, names?: NamingProfile): Promise<Record<string, unknown>> {
  const asker = askerFor(ioOf(ctx));
  try {
    const state = await askAll(initialState(answersFromInventory(inventoryValues), { only: 'issuer', names }), asker);
    return toPlanAnswers(state.answers);
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new CancelledError('Cancelled. Nothing was written or deleted.');
    throw error;
  } finally {
    asker.prompt.close();
  }
}

/** Runs the plain walkthrough; the exit code is 1 only when --apply could not apply the manifest. */
export async function plainSession({ initial, options, services, io }: Session): Promise<number> {
  let state = initialState(initial, options);
  let written = false;
  let reviewed = false;
  const asker = askerFor(io);
  const { prompt } = asker;
  try {
    for (;;) {
      state = await askAll(state, asker);
      const review = await services.prepare(toPlanAnswers(state.answers));
      printReview(review, services.dryRun, prompt);
      const blocked = hasErrors(review.findings);
      const next = await prompt.select({
        message: blocked ? 'The settings have errors. What now?' : services.dryRun ? 'Finish the dry run?' : 'Write these files?',
        choices: [
          ...(blocked ? [] : [{ value: 'write', name: services.dryRun ? 'Finish (nothing is written)' : 'Write' }]),
          { value: 'back', name: 'Back to the last question' },
          { value: 'cancel', name: 'Cancel (nothing is written)' },
        ],
      });
      if (next === 'cancel') throw new CancelledError(CANCELLED);
      if (next === 'back') {
        state = reduce(state, { type: 'back' });
        continue;
      }
      const outcome = await services.write();
      reviewed = true;
      const out = prompt;
      if (outcome.dryRun) out.write('Dry run: nothing was written.\n');
      else if (outcome.written.length === 0) out.write(`${UNCHANGED}\n`);
      else out.write(shown(`Written:\n${outcome.written.map((w) => `  ${w}\n`).join('')}`));
      if (outcome.applied) {
        out.write(shown(`${outcome.applied.ok ? '' : 'x '}${outcome.applied.message}\n`));
        if (outcome.applied.advice) out.write(shown(`  -> ${outcome.applied.advice}\n`));
      }
      if (outcome.next.length > 0) out.write(shown(`Next:\n${outcome.next.map((n) => `  ${n}\n`).join('')}`));
      written = outcome.written.length > 0 && !outcome.dryRun;
      const discovery = outcome.offerDiscovery && services.discoveryChecks ? await offerDiscovery(services, asker, cancelledAfter(outcome)) : undefined;
      return exitCodeOf({ ...outcome, discovery });
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new CancelledError(written ? CANCELLED_AFTER_WRITE : reviewed ? CANCELLED_NOTHING_WRITTEN : CANCELLED);
    throw error;
  } finally {
    prompt.close();
  }
}

/** After keyless clouddnsb is written: the same offer as the Ink walkthrough, with the doctor's text report. */
async function offerDiscovery(services: SetupServices, { io, prompt }: Asker, cancelled: string): Promise<DoctorReport | undefined> {
  prompt.write('\nThe discovery and kube checks test the published OIDC issuer and the cluster (steps 1-4 of the prerequisites).\n');
  if (!(await prompt.confirm({ message: OFFER, default: true }))) return undefined;
  for (;;) {
    const url = (await prompt.input({ message: 'Public issuer URL (https://, as in --service-account-issuer)', validate: (v) => issuerUrlError(v) ?? true })).trim();
    const cancel = new AbortController();
    // Outside a prompt Ctrl+C is a signal: stop the checks and say what stays written.
    const onInterrupt = () => cancel.abort();
    process.once('SIGINT', onInterrupt);
    try {
      const { checks, options } = await services.discoveryChecks!(url, cancel.signal);
      prompt.write(shown(`Checking ${url} and the cluster...\n`));
      const stopped = new Promise<never>((_, reject) =>
        cancel.signal.addEventListener('abort', () => reject(new CancelledError(cancelled)), { once: true }));
      const report = await Promise.race([runChecks(checks, options), stopped]);
      prompt.write(renderText(report, { verbose: false, color: useColor(io.output as NodeJS.WriteStream), ascii: io.ascii }));
      return report;
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      prompt.write(shown(`x The checks could not start: ${error instanceof Error ? error.message : String(error)}\n`));
    } finally {
      process.off('SIGINT', onInterrupt);
    }
  }
}

async function askAll(start: WizardState, asker: Asker): Promise<WizardState> {
  let state = start;
  while (!isReview(state)) {
    const step = currentStep(state)!;
    asker.prompt.write(`\n${step.section}: ${step.help}\n`);
    const value = await ask(step, state, asker);
    if (value === BACK) {
      if (state.index === 0) throw new CancelledError(CANCELLED);
      state = reduce(state, { type: 'back' });
    } else {
      state = reduce(state, { type: 'answer', value });
    }
  }
  return state;
}

async function ask(step: Step, state: WizardState, asker: Asker): Promise<AnswerValue> {
  const { prompt } = asker;
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
    const value = await prompt.password({
      message: `${title}${keep ? ' (Enter keeps the current value)' : ''}${back}`,
      validate: (v) => v === BACK || (stepError(step, v === '' && keep ? existingText : v, answers) ?? true),
    });
    registerSecret(value);
    return value === '' && keep ? existingText : value.trim();
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

async function askFile(step: Step, state: WizardState, { io, prompt }: Asker, message: string, existing: string): Promise<AnswerValue> {
  const inline = existing.includes('-----BEGIN');
  for (;;) {
    let findings: Finding[] = [];
    let stored: string | undefined;
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
        const error = findings.find((f) => f.severity === 'error');
        return error ? redact([error.message, error.advice].filter(Boolean).join(' ')) : true;
      },
    });
    const path = typed.trim();
    if (path === BACK) return BACK;
    if (path === '') return inline ? existing : '';
    if (findings.length === 0) return stored ?? path;
    printFindings(findings, prompt);
    if (await prompt.confirm({ message: 'Accept these warnings and continue?', default: false })) return stored ?? path;
  }
}

/** What is printed between prompts quotes files and servers: redacted, control characters escaped. */
function shown(text: string): string {
  return escapeControl(redact(text));
}

function printFindings(findings: Finding[], out: { write(text: string): unknown }): void {
  for (const f of findings) {
    out.write(shown(`${f.severity === 'error' ? 'x' : f.severity === 'warning' ? '!' : 'i'} ${f.message}\n`));
    if (f.advice) out.write(shown(`  -> ${f.advice}\n`));
  }
}

function printReview(review: Review, dryRun: boolean, out: { write(text: string): unknown }): void {
  out.write(shown(`\nReview: ${review.inventoryPath}\n${review.names ? `${review.names}\n` : ''}`));
  out.write(review.diff.trim() === '' ? 'No change to the inventory.\n' : shown(review.diff.endsWith('\n') ? review.diff : `${review.diff}\n`));
  // One line per changed object; the objects' whole diff with --dry-run (the review stays on one screen).
  if (review.cluster) out.write(shown(`${[...review.cluster.lines, ''].join('\n')}${dryRun ? review.cluster.diff : ''}`));
  out.write(dryRun ? 'Would write (dry run: nothing is written):\n' : 'Files to write:\n');
  for (const f of review.files) {
    const notes = [f.mode === undefined ? '' : `mode ${f.mode.toString(8).padStart(4, '0')}`, f.holdsSecret ? 'holds secrets' : ''].filter(Boolean);
    out.write(shown(`  ${f.path} - ${f.description}${notes.length ? ` (${notes.join(', ')})` : ''}\n`));
  }
  if (review.issuerChange) {
    const { from, to } = review.issuerChange;
    out.write(shown(`! The issuer changes from ${from} to ${to}: the existing certificate secrets must be deleted so that ${to} can issue new certificates.\n`));
    out.write('  -> After writing, run: cloudgate regenerate (it finds and deletes the stale secrets).\n');
  }
  printFindings(review.findings, out);
}
