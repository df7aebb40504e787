import { Box, Text } from 'ink';
import { useState } from 'react';
import type { Finding } from '../../../core/findings.js';
import { hasErrors } from '../../../core/findings.js';
import { completePath } from '../../../core/setup/path-completion.js';
import { escapeLine } from '../../../core/escape.js';
import { Findings } from './Findings.js';
import { TextInput } from './TextInput.js';

export interface FileCheckResult {
  value?: string;
  findings: Finding[];
  /** A fix offered in place: accepted with Enter, it adds these answers. */
  offer?: { question: string; also: Record<string, string | boolean | undefined>; value?: string };
}

interface Props {
  initialValue?: string;
  placeholder?: string;
  /** Paths are completed (Tab) and read relative to it. */
  cwd: string;
  /** Called when the field is left empty; returns the inline error, or undefined to accept. */
  validateEmpty(): string | undefined;
  /** Reads the file and runs its checks. */
  check(path: string): FileCheckResult;
  /** `value` is what check() returned; undefined when the field was accepted empty; `also`: an accepted offer's answers. */
  onSubmit(value: string | undefined, also?: Record<string, string | boolean | undefined>): void;
  isActive?: boolean;
}

/**
 * A path (or `file:PATH`), completed with Tab, checked on Enter. Errors keep the operator here;
 * warnings are shown and a second Enter on the same path accepts them (and a fix offered with them).
 */
export function FileInput({ initialValue, placeholder, cwd, validateEmpty, check, onSubmit, isActive = true }: Props) {
  const [result, setResult] = useState<{ path: string; check: FileCheckResult }>();
  const [candidates, setCandidates] = useState<string[]>([]);
  const submit = (raw: string) => {
    const path = raw.trim();
    setCandidates([]);
    if (path === '') {
      if (!validateEmpty()) onSubmit(undefined);
      return;
    }
    if (result && result.path === path && !hasErrors(result.check.findings)) {
      onSubmit(result.check.offer?.value ?? result.check.value, result.check.offer?.also);
      return;
    }
    const outcome = check(path);
    setResult({ path, check: outcome });
    if (outcome.findings.length === 0 && outcome.value !== undefined) onSubmit(outcome.value);
  };
  const blocked = result && hasErrors(result.check.findings);
  const offer = result && !blocked ? result.check.offer : undefined;
  return (
    <Box flexDirection="column">
      <TextInput
        initialValue={initialValue}
        placeholder={placeholder}
        validate={(v) => (v.trim() === '' ? validateEmpty() : undefined)}
        complete={(line) => {
          const completion = completePath(line.value, line.cursor, cwd);
          setCandidates(completion.candidates);
          return completion;
        }}
        onSubmit={submit}
        isActive={isActive}
      />
      {candidates.length > 0 ? (
        <Text dimColor wrap="wrap">
          {escapeLine(candidates.join('  '))}
        </Text>
      ) : null}
      {result ? <Findings findings={result.check.findings} /> : null}
      {result && result.check.findings.length > 0 ? (
        <Text dimColor wrap="wrap">
          {blocked
            ? 'Fix the file (or give another path) to continue.'
            : offer
              ? `${offer.question} Enter: yes · or give another path.`
              : 'Press Enter again to accept these warnings.'}
        </Text>
      ) : null}
    </Box>
  );
}
