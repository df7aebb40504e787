import { Box, Text, useInput, useStdin } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { tint } from './theme.js';
import { escapeLine } from '../../../core/escape.js';
import { InlineError } from './InlineError.js';
import { applyInput, type Line } from './line-edit.js';

interface Props {
  initialValue?: string;
  /** Show one `*` per character instead of the text (secrets); a function decides by the value (a path is shown). */
  mask?: boolean | ((value: string) => boolean);
  /** Shown dim while the field is empty. */
  placeholder?: string;
  /** Returns the inline error for a value, or undefined when it is fine. */
  validate?(value: string): string | undefined;
  onSubmit(value: string): void;
  /** Tab: the completed line (paths), or undefined to leave it. */
  complete?(line: Line): Line | undefined;
  isActive?: boolean;
  /** An error decided outside (e.g. a file check), shown until the value changes. */
  error?: string;
}

/**
 * One line of text, edited like a shell prompt (line-edit.ts: cursor keys, Home/End, Delete,
 * Ctrl+A/E/U/W/K; Tab completes when the field can). Validates on Enter; once an error has shown,
 * re-validates on every keystroke so the message goes away as soon as the value is fixed.
 */
export function TextInput({
  initialValue = '',
  mask = false,
  placeholder,
  validate,
  onSubmit,
  complete,
  isActive = true,
  error: outside,
}: Props) {
  const [line, setLine] = useState<Line>({ value: initialValue, cursor: initialValue.length });
  const [error, setError] = useState<string>();
  const [shownOutside, setShownOutside] = useState(true);
  // Keystrokes can arrive faster than React re-renders (pastes, tests): the ref is always current.
  const current = useRef<Line>(line);
  const checking = useRef(false);
  const latest = useRef({ validate, onSubmit, complete });
  latest.current = { validate, onSubmit, complete };
  const { internal_eventEmitter: keys } = useStdin();
  // Raw mode on while active; the keys themselves are read raw below (Ink reports Backspace and Delete alike).
  useInput(() => undefined, { isActive });

  useEffect(() => {
    if (!isActive) return;
    const onData = (data: string | Buffer) => {
      const text = String(data);
      // Ctrl+C, Esc and the arrows that leave the field belong to the screen around it.
      if (text === '\u0003' || text === '\u001b' || text === '\u001b[A' || text === '\u001b[B') return;
      const { validate: check, onSubmit: submitted, complete: completer } = latest.current;
      const result = applyInput(current.current, text);
      let next = result.line;
      if (result.tab && completer) next = completer(next) ?? next;
      const changed = next.value !== current.current.value;
      current.current = next;
      setLine(next);
      if (changed) setShownOutside(false);
      if (result.submit) {
        const problem = check?.(next.value);
        checking.current = true;
        setError(problem);
        if (!problem) submitted(next.value);
      } else if (changed && checking.current) setError(check?.(next.value));
    };
    keys.on('input', onData);
    return () => {
      keys.removeListener('input', onData);
    };
  }, [isActive, keys]);

  const { value, cursor } = line;
  // A value prefilled from the inventory may hold control characters: shown escaped, kept as is.
  const masked = typeof mask === 'function' ? mask(value) : mask;
  const show = (part: string) => (masked ? '*'.repeat(part.length) : escapeLine(part));
  const message = error ?? (shownOutside ? outside : undefined);
  return (
    <Box flexDirection="column">
      <Text wrap="wrap">
        <Text color={tint('cyan')}>{'> '}</Text>
        {show(value.slice(0, cursor))}
        {isActive ? <Text inverse>{cursor < value.length ? show(value[cursor]) : ' '}</Text> : null}
        {show(value.slice(cursor + (isActive ? 1 : 0)))}
        {value === '' && placeholder ? <Text dimColor>{placeholder}</Text> : null}
      </Text>
      <InlineError message={message} />
    </Box>
  );
}
