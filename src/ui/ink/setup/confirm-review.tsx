/**
 * `cloudgate regenerate`'s confirmation on the walkthrough's review screen, with its keys: Enter does
 * it, Esc or Ctrl+C cancel (nothing written or deleted).
 */
import { Box, render, Text, useInput } from 'ink';
import { CancelledError } from '../../../core/errors.js';
import type { Review } from '../../../core/setup/review.js';
import type { CommandContext } from '../../../core/run-context.js';
import { tint } from '../components/theme.js';
import { ReviewScreen } from './ReviewScreen.js';

interface Props {
  review: Review;
  question: string;
  onAnswer(yes: boolean): void;
}

export function ConfirmReview({ review, question, onAnswer }: Props) {
  useInput((input, key) => {
    if (key.escape || (key.ctrl && input === 'c')) onAnswer(false);
  });
  // `Write the inventory and delete 2 secret(s)?` -> `write the inventory and delete 2 secret(s)`.
  const enter = question.replace(/\?$/, '').replace(/^./, (c) => c.toLowerCase());
  return (
    <Box flexDirection="column">
      <Text bold color={tint('cyan')}>
        cloudgate regenerate
      </Text>
      <ReviewScreen
        review={review}
        onConfirm={() => onAnswer(true)}
        confirm={{ enter, escape: 'cancel (nothing written or deleted)' }}
      />
    </Box>
  );
}

/** Shows the review and resolves on Enter; Esc or Ctrl+C reject with CancelledError(cancelled). */
export function confirmOnReview(
  ctx: CommandContext,
  question: string,
  cancelled: string,
  review: Review,
): Promise<void> {
  // Ink unrefs stdin when a walkthrough ends; without this the process could exit at the screen.
  process.stdin.ref?.();
  return new Promise((resolve, reject) => {
    let answer = false;
    const instance = render(
      <ConfirmReview
        review={review}
        question={question}
        onAnswer={(yes) => {
          answer = yes;
          setImmediate(() => instance.unmount());
        }}
      />,
      { exitOnCtrlC: false, stdout: ctx.stdout, patchConsole: false },
    );
    instance.waitUntilExit().then(() => (answer ? resolve() : reject(new CancelledError(cancelled))), reject);
  });
}
