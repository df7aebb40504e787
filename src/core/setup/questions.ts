/**
 * The walkthrough's questions alone: where it stands, the answers so far, forward with a checked
 * answer, back, and the answers it ends with. Nothing here plans or writes an inventory: `cloudgate
 * setup` hands the answers to its session (session.ts), `cloudgate regenerate` to its run
 * (regenerate-run.ts), which needs no setup session to ask. The Ink screens and the plain line mode
 * drive this; which questions there are comes from wizard-flow.ts.
 *
 *   startQuestions(initial, options) -> the first question
 *   answerQuestion(state, value)     -> the next question, or the same one with `error` (refused)
 *   goBack(state)                    -> the previous question, or 'cancel' at the first one
 *   answersOf(state)                 -> the answers for planSetup once every question is answered
 */
import {
  currentStep,
  initialState,
  isReview,
  reduce,
  stepError,
  stepsFor,
  toPlanAnswers,
  type AnswerValue,
  type FlowOptions,
  type Step,
  type WizardAnswers,
  type WizardState,
} from './wizard-flow.js';

export interface QuestionsState extends WizardState {
  /** Why the last answer was refused (shown under the question); cleared by the next move. */
  error?: string;
}

/** One answer to the current question. */
export interface QuestionAnswer {
  value: AnswerValue;
  /** Answers this one brings (a TSIG key file's name and algorithm, a chain to put in order). */
  also?: WizardAnswers;
  /**
   * The question the answer is for. Keys can arrive before the next question is drawn: an answer
   * meant for a question that is no longer current is dropped, never given to the next one.
   */
  stepId?: string;
}

export type QuestionsAction = ({ type: 'answer' } & QuestionAnswer) | { type: 'back' };

export function startQuestions(initial: WizardAnswers = {}, options: FlowOptions = {}): QuestionsState {
  return initialState(initial, options);
}

/** The question to ask now; undefined once every question is answered. */
export function questionOf(state: WizardState): Step | undefined {
  return currentStep(state);
}

/** Every question is answered: what comes next is the caller's (setup's review, regenerate's run). */
export function answeredAll(state: WizardState): boolean {
  return isReview(state);
}

/** Esc or "back" here cancels: there is no question before it. */
export function atFirstQuestion(state: WizardState): boolean {
  return state.index === 0;
}

/**
 * "question N of M": M follows a choice still only highlighted (`highlighted`), since the choice
 * decides the questions after it.
 */
export function progressOf(
  state: WizardState,
  highlighted?: { stepId: string; value: string },
): { number: number; total: number } {
  const step = currentStep(state);
  const answers =
    step && highlighted?.stepId === step.id ? { ...state.answers, [step.id]: highlighted.value } : state.answers;
  return { number: state.index + 1, total: stepsFor(answers, state.options).length };
}

/**
 * The error for this answer to the current question, as the screens show it under the question: the
 * value's format, then the inventory's rules given the answers before it. A file's path is checked by
 * the screen when it is typed (checkFileInput reads the file, and may offer to fix it in place), so
 * here a file answer is only checked for being required.
 */
export function answerError(state: WizardState, answer: QuestionAnswer): string | undefined {
  const step = currentStep(state);
  if (!step) return undefined;
  if (step.kind === 'file')
    return step.required && answer.value === '' ? `${step.title}: give the path of a PEM file.` : undefined;
  return stepError(step, answer.value, { ...state.answers, ...answer.also });
}

/** Forward: a refused answer keeps the question and says why; an accepted one moves to the next. */
export function answerQuestion(state: QuestionsState, answer: QuestionAnswer): QuestionsState {
  const step = currentStep(state);
  if (!step || (answer.stepId !== undefined && answer.stepId !== step.id)) return state;
  const error = answerError(state, answer);
  if (error) return { ...state, error };
  return reduce(withoutError(state), { type: 'answer', value: answer.value, stepId: step.id, also: answer.also });
}

/** Back one question, its answer kept (so are the answers of a branch no longer chosen); 'cancel' at the first. */
export function goBack(state: QuestionsState): QuestionsState | 'cancel' {
  if (atFirstQuestion(state)) return 'cancel';
  return reduce(withoutError(state), { type: 'back' });
}

function withoutError(state: QuestionsState): QuestionsState {
  const { answers, index, options } = state;
  return { answers, index, options };
}

/** The reducer of the Ink screens: `back` at the first question stays there (the screen cancels first). */
export function questionsReducer(state: QuestionsState, action: QuestionsAction): QuestionsState {
  if (action.type === 'back') {
    const back = goBack(state);
    return back === 'cancel' ? state : back;
  }
  return answerQuestion(state, action);
}

/** The answers for planSetup (inventory variable names and tool keys), once every question is answered. */
export function answersOf(state: WizardState): Record<string, unknown> | undefined {
  return isReview(state) ? toPlanAnswers(state.answers) : undefined;
}
