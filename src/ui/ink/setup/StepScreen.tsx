import { Box, Text } from 'ink';
import { useState } from 'react';
import { registerSecret } from '../../../core/secrets.js';
import {
  checkFileInput,
  defaultChoiceIndex,
  keepHint,
  looksLikePath,
  secretAnswer,
  defaultFor,
  isOptional,
  stepError,
  type AnswerValue,
  type Step,
  type WizardAnswers,
} from '../../../core/setup/wizard-flow.js';
import { FileInput } from '../components/FileInput.js';
import { SelectList } from '../components/SelectList.js';
import { TextInput } from '../components/TextInput.js';
import { InlineError } from '../components/InlineError.js';
import { SECRET as TSIG_SECRET } from '../../../core/config/tsig-key.js';

interface Props {
  step: Step;
  answers: WizardAnswers;
  cwd: string;
  /** `also`: answers this one brings (a TSIG key file's name and algorithm, a chain to put in order). */
  onAnswer(value: AnswerValue, also?: WizardAnswers): void;
  /** A choice is highlighted (not yet picked): the counter can show where it leads. */
  onHighlight?(value: string): void;
}

/** One question: its title, its one-line explanation, and the input its kind needs. */
export function StepScreen({ step, answers, cwd, onAnswer, onHighlight }: Props) {
  const [selectError, setSelectError] = useState<string>();
  const existing = answers[step.id];
  const existingText = typeof existing === 'string' ? existing : existing === undefined ? '' : String(existing);
  const optional = isOptional(step, answers);

  const input = (() => {
    switch (step.kind) {
      case 'select':
        return (
          <SelectList
            choices={step.choices ?? []}
            initialIndex={defaultChoiceIndex(step, answers)}
            onHighlight={onHighlight}
            onSelect={(value) => {
              const error = stepError(step, value, answers);
              setSelectError(error);
              if (!error) onAnswer(value);
            }}
          />
        );
      case 'secret': {
        // A secret already in the inventory is never shown; an empty Enter keeps it.
        const keep = existingText !== '';
        // The TSIG secret may be the key file's path: a path is shown as typed, the file's secret is kept.
        const read = (v: string) => secretAnswer(step, v, existingText, cwd);
        return (
          <TextInput
            mask={(v) => !(step.id === TSIG_SECRET && looksLikePath(v))}
            placeholder={keep ? keepHint(existingText) : undefined}
            validate={(v) => {
              const got = read(v);
              return got.error ?? stepError(step, got.value ?? '', { ...answers, ...got.also });
            }}
            onSubmit={(v) => {
              const got = read(v);
              // A key file's path is no secret (the file's secret is registered as it is read): it stays readable in the review.
              if (!got.value?.startsWith('file:')) registerSecret(v);
              onAnswer(got.value ?? '', got.also);
            }}
          />
        );
      }
      case 'file': {
        const path = existingText.startsWith('file:')
          ? existingText.slice(5)
          : existingText.includes('-----BEGIN')
            ? ''
            : existingText;
        const inline = existingText.includes('-----BEGIN');
        return (
          <FileInput
            initialValue={path}
            placeholder={inline ? '(Enter keeps the PEM now in the inventory)' : 'path/to/file.pem'}
            validateEmpty={() => (inline || !step.required ? undefined : `${step.title}: give the path of a PEM file.`)}
            cwd={cwd}
            check={(raw) => checkFileInput(step, raw, answers, cwd)}
            onSubmit={(value, also) => onAnswer(value ?? (inline ? existingText : ''), also)}
          />
        );
      }
      default: {
        const initial = defaultFor(step, answers);
        return (
          <TextInput
            initialValue={initial === undefined ? '' : String(initial)}
            placeholder={step.example ? `e.g. ${step.example}` : optional ? '(optional: Enter to skip)' : undefined}
            validate={(v) => stepError(step, v, answers)}
            onSubmit={(v) => onAnswer(v.trim())}
          />
        );
      }
    }
  })();

  return (
    <Box flexDirection="column">
      <Text bold wrap="wrap">
        {step.title}
        {optional ? ' (optional)' : ''}
      </Text>
      <Text dimColor wrap="wrap">
        {step.help}
      </Text>
      <Box marginTop={1} flexDirection="column">
        {input}
      </Box>
      <InlineError message={selectError} />
    </Box>
  );
}
