import { Box, Text, useInput } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { POINTER, tint } from './theme.js';

export interface SelectChoice {
  value: string;
  label: string;
  /** One line shown under the list while this choice is highlighted. */
  help?: string;
}

interface Props {
  choices: SelectChoice[];
  initialIndex?: number;
  onSelect(value: string): void;
  /** The highlighted choice, whenever it changes (and at first). */
  onHighlight?(value: string): void;
  isActive?: boolean;
}

/** Arrow keys (or j/k, or the choice's number) move, Enter picks. */
export function SelectList({ choices, initialIndex = 0, onSelect, onHighlight, isActive = true }: Props) {
  const [index, setIndex] = useState(Math.min(Math.max(initialIndex, 0), choices.length - 1));
  // Keys can arrive faster than React redraws (a fast typist, a script): the ref is always current,
  // so Enter picks the choice the arrows reached, not the one drawn last.
  const current = useRef(index);
  const move = (next: number) => {
    current.current = next;
    setIndex(next);
  };
  useEffect(() => {
    if (choices[index]) onHighlight?.(choices[index].value);
  }, [index]);
  useInput(
    (input, key) => {
      if (key.ctrl || choices.length === 0) return;
      const at = current.current;
      if (key.upArrow || input === 'k') move((at - 1 + choices.length) % choices.length);
      else if (key.downArrow || input === 'j' || key.tab) move((at + 1) % choices.length);
      else if (key.return) onSelect(choices[at]!.value);
      else if (/^[1-9]$/.test(input) && Number(input) <= choices.length) move(Number(input) - 1);
    },
    { isActive },
  );
  const help = choices[index]?.help;
  return (
    <Box flexDirection="column">
      {choices.map((c, i) => (
        <Text key={c.value} color={i === index ? tint('cyan') : undefined} bold={i === index} wrap="wrap">
          {i === index ? POINTER : ' '} {c.label}
        </Text>
      ))}
      {help ? (
        <Box marginTop={1}>
          <Text wrap="wrap">{help}</Text>
        </Box>
      ) : null}
    </Box>
  );
}
