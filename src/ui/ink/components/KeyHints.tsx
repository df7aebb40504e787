import { Text } from 'ink';

/** The keys that work on this screen, one dim line that wraps on narrow terminals. */
export function KeyHints({ hints }: { hints: string[] }) {
  return (
    <Text dimColor wrap="wrap">
      {hints.join(' · ')}
    </Text>
  );
}
