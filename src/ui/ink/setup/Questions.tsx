/**
 * The walkthrough's question screen and the questions-only app. `Questions` draws the current
 * question of a questions model (core/setup/questions.ts); the keys belong to the app around it.
 * `QuestionsApp` asks the questions and hands back the answers: `cloudgate regenerate` asks its issuer
 * questions with it, with no setup session (nothing to plan or write here). SetupApp draws the same
 * `Questions` before its review.
 */
import { Box, Text, useInput } from 'ink';
import { useEffect, useReducer, useState, type ReactNode } from 'react';
import { CancelledError } from '../../../core/errors.js';
import { CANCELLED } from '../../../core/setup/outcome.js';
import { sessionTitle, type FlowOptions, type WizardAnswers } from '../../../core/setup/wizard-flow.js';
import {
  answersOf,
  atFirstQuestion,
  progressOf,
  questionOf,
  questionsReducer,
  startQuestions,
  type QuestionAnswer,
  type QuestionsState,
} from '../../../core/setup/questions.js';
import { KeyHints } from '../components/KeyHints.js';
import { InlineError } from '../components/InlineError.js';
import { tint } from '../components/theme.js';
import { StepScreen } from './StepScreen.js';
import { renderUntilExit } from './render-until-exit.js';
import type { CommandContext } from '../../../core/run-context.js';

interface QuestionsProps {
  state: QuestionsState;
  /** File answers are relative to it. */
  cwd: string;
  onAnswer(answer: QuestionAnswer): void;
  /** Shown under the question (setup's keyless prerequisites). */
  below?: ReactNode;
  /** Why the walkthrough came back to this question (setup: the review could not be made). */
  failure?: string;
}

/** The current question: where it stands ("question N of M"), the question, its error, the keys. */
export function Questions({ state, cwd, onAnswer, below, failure }: QuestionsProps) {
  // The total follows the highlighted choice, so it changes while choosing, never after.
  const [highlighted, setHighlighted] = useState<{ stepId: string; value: string }>();
  const step = questionOf(state);
  if (!step) return <Text>Preparing the review…</Text>;
  const { number, total } = progressOf(state, highlighted);
  return (
    <Box flexDirection="column">
      <Text dimColor wrap="truncate-end">
        {step.section} · question {number} of {total}
      </Text>
      <StepScreen
        key={`${state.index}:${step.id}`}
        step={step}
        answers={state.answers}
        cwd={cwd}
        onHighlight={(value) => setHighlighted({ stepId: step.id, value })}
        onAnswer={(value, also) => onAnswer({ value, also, stepId: step.id })}
      />
      {below}
      <InlineError message={failure ?? state.error} />
      <Box marginTop={1}>
        <KeyHints
          hints={['Enter next', atFirstQuestion(state) ? 'Esc cancel' : 'Esc back', 'Ctrl+C cancel (nothing written)']}
        />
      </Box>
    </Box>
  );
}

/** How the questions-only walkthrough ends: the answers for planSetup, or a cancel (CancelledError). */
export type QuestionsResult = { kind: 'answers'; answers: Record<string, unknown> } | { kind: 'error'; error: Error };

interface QuestionsAppProps {
  initial: WizardAnswers;
  options?: FlowOptions;
  cwd: string;
  onExit(result: QuestionsResult): void;
}

/** Only the questions, with the walkthrough's title and keys: Esc back (cancel at the first), Ctrl+C cancel. */
export function QuestionsApp({ initial, options = {}, cwd, onExit }: QuestionsAppProps) {
  const [state, dispatch] = useReducer(questionsReducer, startQuestions(initial, options));
  const [finished, setFinished] = useState(false);
  const exit = (result: QuestionsResult) => {
    if (finished) return;
    setFinished(true);
    onExit(result);
  };
  useInput((input, key) => {
    if ((key.ctrl && input === 'c') || (key.escape && atFirstQuestion(state)))
      exit({ kind: 'error', error: new CancelledError(CANCELLED) });
    else if (key.escape) dispatch({ type: 'back' });
  });
  const done = answersOf(state) !== undefined;
  useEffect(() => {
    const answers = answersOf(state);
    if (answers) exit({ kind: 'answers', answers });
  }, [done]);
  return (
    <Box flexDirection="column">
      <Text bold color={tint('cyan')}>
        {sessionTitle(options)}
      </Text>
      <Questions state={state} cwd={cwd} onAnswer={(answer) => dispatch({ type: 'answer', ...answer })} />
    </Box>
  );
}

/** Renders QuestionsApp and settles once it has unmounted (terminal restored). */
export function renderQuestions({
  ctx,
  initial,
  options,
  beforeRender,
}: {
  ctx: CommandContext;
  initial: WizardAnswers;
  options: FlowOptions;
  beforeRender?(): void;
}): Promise<QuestionsResult> {
  return renderUntilExit<QuestionsResult>(
    ctx,
    (onExit) => <QuestionsApp initial={initial} options={options} cwd={ctx.cwd} onExit={onExit} />,
    { kind: 'error', error: new Error('The walkthrough ended without a result.') },
    beforeRender,
  );
}
