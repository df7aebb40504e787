import { Box, Text } from 'ink';
import { useState } from 'react';
import type { Finding } from '../../../core/findings.js';
import { hasErrors } from '../../../core/findings.js';
import { Findings } from './Findings.js';
import { TextInput } from './TextInput.js';

export interface FileCheckResult {
  value?: string;
  findings: Finding[];
}

interface Props {
  initialValue?: string;
  placeholder?: string;
  /** Called when the field is left empty; returns the inline error, or undefined to accept. */
  validateEmpty(): string | undefined;
  /** Reads the file and runs its checks. */
  check(path: string): FileCheckResult;
  /** `value` is what check() returned; undefined when the field was accepted empty. */
  onSubmit(value: string | undefined): void;
  isActive?: boolean;
}

/**
 * A path, checked on Enter. Errors keep the operator here; warnings are shown and a second Enter on
 * the same path accepts them.
 */
export function FileInput({ initialValue, placeholder, validateEmpty, check, onSubmit, isActive = true }: Props) {
  const [result, setResult] = useState<{ path: string; check: FileCheckResult }>();
  const submit = (raw: string) => {
    const path = raw.trim();
    if (path === '') {
      if (!validateEmpty()) onSubmit(undefined);
      return;
    }
    if (result && result.path === path && !hasErrors(result.check.findings)) {
      onSubmit(result.check.value);
      return;
    }
    const outcome = check(path);
    setResult({ path, check: outcome });
    if (outcome.findings.length === 0 && outcome.value !== undefined) onSubmit(outcome.value);
  };
  const blocked = result && hasErrors(result.check.findings);
  return (
    <Box flexDirection="column">
      <TextInput
        initialValue={initialValue}
        placeholder={placeholder}
        validate={(v) => (v.trim() === '' ? validateEmpty() : undefined)}
        onSubmit={submit}
        isActive={isActive}
      />
      {result ? <Findings findings={result.check.findings} /> : null}
      {result && result.check.findings.length > 0 ? (
        <Text dimColor wrap="wrap">
          {blocked ? 'Fix the file (or give another path) to continue.' : 'Press Enter again to accept these warnings.'}
        </Text>
      ) : null}
    </Box>
  );
}
