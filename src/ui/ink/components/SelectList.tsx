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
      const step = (by: number) => move((current.current + by + choices.length) % choices.length);
      if (key.upArrow) step(-1);
      else if (key.downArrow || key.tab) step(1);
      else if (key.return) onSelect(choices[current.current].value);
      else {
        // Typed keys can arrive as one chunk ("2" and Enter, two Enters over a slow link): each counts,
        // and Enter ends the question (what follows it was typed for the next one, which is not drawn yet).
        for (const ch of input) {
          if (ch === '\r' || ch === '\n') return onSelect(choices[current.current].value);
          if (ch === 'k') step(-1);
          else if (ch === 'j') step(1);
          else if (/^[1-9]$/.test(ch) && Number(ch) <= choices.length) move(Number(ch) - 1);
        }
      }
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
