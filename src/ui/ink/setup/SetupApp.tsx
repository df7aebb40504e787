import { usesKeylessDns } from '../../../core/config/variables.js';
import { Box, Text, useInput } from 'ink';
import { useEffect, useReducer, useRef, useState } from 'react';
import { CancelledError } from '../../../core/errors.js';
import {
  FIX_ORDER,
  sessionTitle,
  toPlanAnswers,
  type FlowOptions,
  type WizardAnswers,
} from '../../../core/setup/wizard-flow.js';
import {
  answeredAll,
  atFirstQuestion,
  questionOf,
  questionsReducer,
  startQuestions,
} from '../../../core/setup/questions.js';
import { tint } from '../components/theme.js';
import { DiscoveryOffer } from './DiscoveryOffer.js';
import { FinalScreen } from './FinalScreen.js';
import { Prerequisites } from './Prerequisites.js';
import { ReviewScreen } from './ReviewScreen.js';
import { Questions, QuestionsApp, type QuestionsResult } from './Questions.js';
import { VaultChoice } from './VaultChoice.js';
import { CANCELLED, type Outcome } from '../../../core/setup/outcome.js';
import type { Review } from '../../../core/setup/review.js';
import type { SetupSession } from '../../../core/setup/session.js';

export type SetupResult = { kind: 'done'; outcome: Outcome } | QuestionsResult;

interface Props {
  initial: WizardAnswers;
  options?: FlowOptions;
  session: SetupSession;
  /** Only the questions: hand back the answers, the session is not used (QuestionsApp, as regenerate asks). */
  answersOnly?: boolean;
  onExit(result: SetupResult): void;
}

type Phase =
  | { name: 'questions' }
  | { name: 'preparing' }
  | { name: 'review' | 'vault'; review: Review }
  | { name: 'writing' }
  | { name: 'done' | 'discovery'; outcome: Outcome };

/** The walkthrough: the questions (questions.ts), then the review, then the final screen. */
export function SetupApp({ answersOnly = false, ...props }: Props) {
  if (answersOnly)
    return (
      <QuestionsApp initial={props.initial} options={props.options} cwd={props.session.cwd} onExit={props.onExit} />
    );
  return <SetupWalkthrough {...props} />;
}

function SetupWalkthrough({ initial, options = {}, session, onExit }: Omit<Props, 'answersOnly'>) {
  const [state, dispatch] = useReducer(questionsReducer, startQuestions(initial, options));
  const [phase, setPhase] = useState<Phase>({ name: 'questions' });
  const [failure, setFailure] = useState<string>();
  const [finished, setFinished] = useState(false);
  const reviewing = answeredAll(state);

  const exit = (result: SetupResult) => {
    if (finished) return;
    setFinished(true);
    onExit(result);
  };

  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      if (phase.name === 'discovery') exit({ kind: 'error', error: new CancelledError(phase.outcome.cancelled) });
      else if (phase.name !== 'writing' && phase.name !== 'done')
        exit({ kind: 'error', error: new CancelledError(CANCELLED) });
      return;
    }
    if (!key.escape || ['writing', 'done', 'preparing', 'discovery'].includes(phase.name)) return;
    if (atFirstQuestion(state)) {
      exit({ kind: 'error', error: new CancelledError(CANCELLED) });
      return;
    }
    setFailure(undefined);
    setPhase({ name: 'questions' });
    dispatch({ type: 'back' });
  });

  useEffect(() => {
    if (!reviewing || phase.name !== 'questions') return;
    const answers = toPlanAnswers(state.answers);
    setPhase({ name: 'preparing' });
    session.prepare(answers, { fixOrder: state.answers[FIX_ORDER] === 'true' }).then(
      // Secrets about to be written in plain text: the vault is offered first (once per walkthrough).
      (review) =>
        setPhase({ name: review.plainText && session.useVault && !plainChosen.current ? 'vault' : 'review', review }),
      (error: unknown) => {
        // The plan could not be made (e.g. an unreadable inventory): say why, stay on the last question.
        setFailure(error instanceof Error ? error.message : String(error));
        setPhase({ name: 'questions' });
        dispatch({ type: 'back' });
      },
    );
  }, [reviewing, phase.name]);

  const plainChosen = useRef(false);
  const vaultThenReview = async (id: string) => {
    await session.useVault!(id);
    const review = await session.prepare(toPlanAnswers(state.answers), {
      fixOrder: state.answers[FIX_ORDER] === 'true',
    });
    setPhase({ name: 'review', review });
  };

  // A second Enter can reach the review before it is replaced by "Writing…": the write happens once.
  const writeStarted = useRef(false);
  const confirm = () => {
    if (writeStarted.current) return;
    writeStarted.current = true;
    setPhase({ name: 'writing' });
    session.write().then(
      (outcome) =>
        setPhase({ name: outcome.offerDiscovery && session.discoveryChecks ? 'discovery' : 'done', outcome }),
      (error: unknown) => exit({ kind: 'error', error: error instanceof Error ? error : new Error(String(error)) }),
    );
  };

  useEffect(() => {
    if (phase.name === 'done') exit({ kind: 'done', outcome: phase.outcome });
  }, [phase.name]);

  if (phase.name === 'discovery') {
    const { outcome } = phase;
    return (
      <DiscoveryOffer
        outcome={outcome}
        session={session}
        onDone={(discovery) => exit({ kind: 'done', outcome: { ...outcome, discovery } })}
      />
    );
  }
  let body;
  if (phase.name === 'done') body = <FinalScreen outcome={phase.outcome} />;
  else if (phase.name === 'writing') body = <Text>Writing…</Text>;
  else if (phase.name === 'review') body = <ReviewScreen review={phase.review} onConfirm={confirm} />;
  else if (phase.name === 'vault') {
    const { review } = phase;
    body = (
      <VaultChoice
        plainText={review.plainText ?? ''}
        candidates={session.vaultCandidates?.() ?? []}
        cwd={session.cwd}
        useVault={vaultThenReview}
        onPlain={() => {
          plainChosen.current = true;
          setPhase({ name: 'review', review });
        }}
      />
    );
  } else if (phase.name === 'preparing') body = <Text>Preparing the review…</Text>;
  else {
    const keylessRole =
      questionOf(state)?.id === 'cluster_issuer_acme_route53_role_arn' &&
      usesKeylessDns(state.answers) &&
      session.prerequisites;
    body = (
      <Questions
        state={state}
        cwd={session.cwd}
        failure={failure}
        onAnswer={(answer) => {
          setFailure(undefined);
          dispatch({ type: 'answer', ...answer });
        }}
        below={
          keylessRole ? (
            <Prerequisites
              items={session.prerequisites!(toPlanAnswers(state.answers))}
              command={session.discoveryCommand}
            />
          ) : null
        }
      />
    );
  }
  return (
    <Box flexDirection="column">
      <Text bold color={tint('cyan')}>
        {sessionTitle(options)}
      </Text>
      {body}
    </Box>
  );
}
