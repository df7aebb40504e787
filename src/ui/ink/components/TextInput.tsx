import { Box, Text, useInput } from 'ink';
import { useRef, useState } from 'react';
import { tint } from './theme.js';
import { escapeLine } from '../../../core/escape.js';
import { InlineError } from './InlineError.js';

interface Props {
  initialValue?: string;
  /** Show one `*` per character instead of the text (secrets). */
  mask?: boolean;
  /** Shown dim while the field is empty. */
  placeholder?: string;
  /** Returns the inline error for a value, or undefined when it is fine. */
  validate?(value: string): string | undefined;
  onSubmit(value: string): void;
  isActive?: boolean;
  /** An error decided outside (e.g. a file check), shown until the value changes. */
  error?: string;
}

/** Applies typed or pasted text; a burst of backspaces can arrive as one chunk. */
function edit(value: string, input: string): string {
  let out = value;
  for (const ch of input) {
    if (ch === '\u007f' || ch === '\b') out = out.slice(0, -1);
    else if (ch >= ' ') out += ch;
  }
  return out;
}

/**
 * One line of text. Validates on Enter; once an error has shown, re-validates on every keystroke so
 * the message goes away as soon as the value is fixed.
 */
export function TextInput({ initialValue = '', mask = false, placeholder, validate, onSubmit, isActive = true, error: outside }: Props) {
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string>();
  const [shownOutside, setShownOutside] = useState(true);
  // Keystrokes can arrive faster than React re-renders (pastes, tests): the ref is always current.
  const current = useRef(initialValue);
  const checking = useRef(false);

  useInput(
    (input, key) => {
      if (key.ctrl || key.escape || key.upArrow || key.downArrow || key.tab) return;
      const submit = () => {
        const problem = validate?.(current.current);
        checking.current = true;
        setError(problem);
        if (!problem) onSubmit(current.current);
      };
      if (key.return) {
        submit();
        return;
      }
      // A pasted value that ends in a line break is typed, then submitted, as Enter would.
      const lineBreak = input ? input.search(/[\r\n]/) : -1;
      if (lineBreak >= 0) {
        current.current = edit(current.current, input.slice(0, lineBreak));
        setValue(current.current);
        submit();
        return;
      }
      let next = current.current;
      if (key.backspace || key.delete) next = next.slice(0, -1);
      else if (input) next = edit(next, input);
      else return;
      current.current = next;
      setValue(next);
      setShownOutside(false);
      if (checking.current) setError(validate?.(next));
    },
    { isActive },
  );

  // A value prefilled from the inventory may hold control characters: shown escaped, kept as is.
  const shown = mask ? '*'.repeat(value.length) : escapeLine(value);
  const message = error ?? (shownOutside ? outside : undefined);
  return (
    <Box flexDirection="column">
      <Text wrap="wrap">
        <Text color={tint('cyan')}>{'> '}</Text>
        {shown}
        {isActive ? <Text inverse> </Text> : null}
        {value === '' && placeholder ? <Text dimColor>{placeholder}</Text> : null}
      </Text>
      <InlineError message={message} />
    </Box>
  );
}
