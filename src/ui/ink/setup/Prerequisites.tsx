import { Box, Text } from 'ink';
import type { Prerequisite } from '../../../core/setup/session.js';

/** The once-per-cluster steps keyless DNS credentials need, as a compact checklist (titles only). */
export function Prerequisites({ items, command }: { items: Prerequisite[]; command?: string }) {
  if (items.length === 0) return null;
  return (
    <Box marginTop={1} flexDirection="column">
      <Text bold>Keyless route53 (auth kubernetes) needs, once per cluster:</Text>
      {items.map((p, i) => (
        <Text key={p.title} wrap="wrap">
          {' '}
          [ ] {i + 1}. {p.title}
        </Text>
      ))}
      <Text dimColor wrap="wrap">
        Check them with: {command ?? 'cloudgate doctor --only discovery'} (also listed at the end)
      </Text>
    </Box>
  );
}
