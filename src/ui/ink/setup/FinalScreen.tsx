import { Box, Text } from 'ink';
import { escapeControl, escapeLine } from '../../../core/escape.js';
import { redact } from '../../../core/secrets.js';
import { tint } from '../components/theme.js';
import type { Outcome } from './types.js';

export const UNCHANGED = 'Nothing to write: the files already hold these settings.';

/** What was written and what to run next. */
export function FinalScreen({ outcome }: { outcome: Outcome }) {
  return (
    <Box flexDirection="column">
      {outcome.dryRun ? (
        <Text bold>Dry run: nothing was written.</Text>
      ) : outcome.written.length === 0 ? (
        <Text bold>{UNCHANGED}</Text>
      ) : (
        <Box flexDirection="column">
          <Text bold color={tint('green')}>
            Written:
          </Text>
          {outcome.written.map((path) => (
            <Text key={path} wrap="wrap">
              {'  '}
              {escapeLine(path)}
            </Text>
          ))}
        </Box>
      )}
      {outcome.applied ? (
        <Box marginTop={1} flexDirection="column">
          <Text color={tint(outcome.applied.ok ? 'green' : 'red')} wrap="wrap">
            {outcome.applied.ok ? '' : 'x '}
            {escapeControl(redact(outcome.applied.message))}
          </Text>
          {outcome.applied.advice ? <Text wrap="wrap">  {'->'} {escapeControl(redact(outcome.applied.advice))}</Text> : null}
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
