/**
 * The walkthrough's questions one line at a time (`--plain`), driven by the questions model
 * (core/setup/questions.ts): numbered choices, "<" to go back, the same checks as the Ink screens.
 * Only questions: `setup --plain` reviews and writes after them (setup.ts), `regenerate --plain`
 * hands the answers to its run (ask-issuer.ts).
 */
import { LinePrompt } from './line-prompt.js';
import type { CommandContext } from '../../core/run-context.js';
import { CancelledError } from '../../core/errors.js';
import type { Finding } from '../../core/findings.js';
import { escapeControl } from '../../core/escape.js';
import { redact, registerSecret } from '../../core/secrets.js';
import {
  checkFileInput,
  keepHint,
  secretAnswer,
  defaultFor,
  isOptional,
  stepError,
  type FileCheck,
  type AnswerValue,
  type Step,
  type WizardAnswers,
} from '../../core/setup/wizard-flow.js';
import { answerQuestion, answeredAll, goBack, questionOf, type QuestionsState } from '../../core/setup/questions.js';
import { CANCELLED } from '../../core/setup/outcome.js';
import { findingLines } from '../../core/setup/review.js';

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
export interface Asker {
  io: PlainIO;
  prompt: LinePrompt;
}

export function askerFor(io: PlainIO): Asker {
  return { io, prompt: new LinePrompt({ input: io.input, output: io.output, ascii: io.ascii }) };
}

export const ioOf = (ctx: CommandContext): PlainIO => ({
  input: process.stdin,
  output: ctx.stdout,
  cwd: ctx.cwd,
  ascii: ctx.env.TERM === 'dumb',
});

/** Asks from `start` until every question is answered; "<" at the first question cancels (CancelledError). */
export async function askAll(start: QuestionsState, asker: Asker): Promise<QuestionsState> {
  let state = start;
  while (!answeredAll(state)) {
    const step = questionOf(state)!;
    asker.prompt.write(`\n${step.section}: ${step.help}\n`);
    const asked = await ask(step, state, asker);
    // Some answers bring others: a TSIG key file's name and algorithm, a chain to put in order.
    const { value, also } = typeof asked === 'object' ? asked : { value: asked, also: undefined };
    if (value === BACK) {
      const back = goBack(state);
      if (back === 'cancel') throw new CancelledError(CANCELLED);
      state = back;
    } else {
      // The prompts checked the answer already; a refusal here is said and the question asked again.
      state = answerQuestion(state, { value, also });
      if (state.error) asker.prompt.write(`x ${shown(state.error)}\n`);
    }
  }
  return state;
}

type Asked = AnswerValue | { value: AnswerValue; also?: WizardAnswers };

async function ask(step: Step, state: QuestionsState, asker: Asker): Promise<Asked> {
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
        choices: [
          ...(step.choices ?? []).map((c) => ({ value: c.value, name: c.label, description: c.help })),
          ...(state.index > 0 ? [BACK_CHOICE] : []),
        ],
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
    const read = (v: string) => secretAnswer(step, v, existingText, io.cwd);
    const value = await prompt.password({
      message: `${title}${keep ? ` ${shown(keepHint(existingText))}` : ''}${back}`,
      validate: (v) => {
        if (v === BACK) return true;
        const got = read(v);
        return got.error ?? stepError(step, got.value ?? '', { ...answers, ...got.also }) ?? true;
      },
    });
    if (value === BACK) return BACK;
    const got = read(value);
    // A key file's path is no secret (the file's secret is registered as it is read): it stays readable in the review.
    if (!got.value?.startsWith('file:')) registerSecret(value);
    // The answer is not echoed as typed: a key file's path is, as the walkthrough shows it.
    else prompt.write(`  ${shown(`key file ${got.value.slice(5)}`)}\n`);
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

async function askFile(
  step: Step,
  state: QuestionsState,
  { io, prompt }: Asker,
  message: string,
  existing: string,
): Promise<Asked> {
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
    if (offer && (await prompt.confirm({ message: offer.question, default: true })))
      return { value: offer.value ?? stored ?? path, also: offer.also };
    if (!offer && (await prompt.confirm({ message: 'Accept these warnings and continue?', default: false })))
      return stored ?? path;
  }
}

/** What is printed between prompts quotes files and servers: redacted, control characters escaped. */
export function shown(text: string): string {
  return escapeControl(redact(text));
}

export function writeLines(out: { write(text: string): unknown }, lines: string[]): void {
  out.write(shown(`${lines.join('\n')}\n`));
}

function printFindings(findings: Finding[], out: { write(text: string): unknown }): void {
  writeLines(out, findingLines(findings));
}
