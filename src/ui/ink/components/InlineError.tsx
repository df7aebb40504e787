import { Text } from 'ink';
import { escapeControl } from '../../../core/escape.js';
import { redact } from '../../../core/secrets.js';
import { SEVERITY_MARK } from '../../../core/findings.js';
import { tint } from './theme.js';

/** The message under a field or choice that keeps the operator on the question (nothing when empty). */
export function InlineError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <Text color={tint('red')} wrap="wrap">
      {SEVERITY_MARK.error} {escapeControl(redact(message))}
    </Text>
  );
}
