import { Box, Text } from 'ink';
import { tint } from '../components/theme.js';
import type { Outcome } from './types.js';

/** What was written and what to run next. */
export function FinalScreen({ outcome }: { outcome: Outcome }) {
  return (
    <Box flexDirection="column">
      {outcome.dryRun ? (
        <Text bold>Dry run: nothing was written.</Text>
      ) : (
        <Box flexDirection="column">
          <Text bold color={tint('green')}>
            Written:
          </Text>
          {outcome.written.map((path) => (
            <Text key={path} wrap="wrap">
              {'  '}
              {path}
            </Text>
          ))}
        </Box>
      )}
      {outcome.next.length > 0 ? (
        <Box marginTop={1} flexDirection="column">
          <Text bold>Next:</Text>
          {outcome.next.map((line) => (
            <Text key={line} wrap="wrap">
              {'  '}
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
