import { Box, Text } from 'ink';
import { SEVERITY_MARK, type Finding } from '../../../core/findings.js';
import { escapeControl } from '../../../core/escape.js';
import { redact } from '../../../core/secrets.js';
import { tint } from './theme.js';

const COLOR = { error: 'red', warning: 'yellow', info: 'cyan' } as const;

/** Problems with their fix, each prefixed by a mark so they read the same without colour. */
export function Findings({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <Box flexDirection="column">
      {findings.map((f, i) => (
        <Box key={`${f.rule}-${i}`} flexDirection="column">
          <Text color={tint(COLOR[f.severity])} wrap="wrap">
            {SEVERITY_MARK[f.severity]} {escapeControl(redact(f.message))}
          </Text>
          {f.advice ? (
            <Text wrap="wrap">
              {' '}
              {'->'} {escapeControl(redact(f.advice))}
            </Text>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}
