import { Box, Text } from 'ink';
import { escapeControl, escapeLine } from '../../../core/escape.js';
import { redact } from '../../../core/secrets.js';
import type { Outcome } from '../../../core/setup/outcome.js';
import { tint } from '../components/theme.js';

/** What was written, what --apply did, and what to run next: the outcome's own lines. */
export function FinalScreen({ outcome }: { outcome: Outcome }) {
  const wrote = outcome.written.length > 0 && !outcome.dryRun;
  return (
    <Box flexDirection="column">
      <Text bold color={wrote ? tint('green') : undefined}>
        {outcome.headline}
      </Text>
      {outcome.written.map((line) => (
        <Text key={line} wrap="wrap">
          {'  '}
          {escapeLine(line)}
        </Text>
      ))}
      {outcome.applied ? (
        <Box marginTop={1} flexDirection="column">
          <Text color={tint(outcome.applied.ok ? 'green' : 'red')} wrap="wrap">
            {outcome.applied.ok ? '' : 'x '}
            {escapeControl(redact(outcome.applied.message))}
          </Text>
          {outcome.applied.advice ? (
            <Text wrap="wrap">
              {' '}
              {'->'} {escapeControl(redact(outcome.applied.advice))}
            </Text>
          ) : null}
        </Box>
      ) : null}
      {outcome.next.length > 0 ? (
        <Box marginTop={1} flexDirection="column">
          <Text bold>Next:</Text>
          {outcome.next.map((line) => (
            <Text key={line} wrap="wrap">
              {'  '}
              {escapeControl(redact(line))}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
