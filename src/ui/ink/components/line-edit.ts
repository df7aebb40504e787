/**
 * One line of text edited like a shell prompt, from the raw bytes a terminal sends: Left/Right,
 * Home/End (and Ctrl+A/E), Backspace, Delete (forward, and Ctrl+D), Ctrl+U (to the start), Ctrl+K
 * (to the end), Ctrl+W (the word before the cursor). Ink reports Backspace (0x7f) and Delete
 * (ESC [3~) as the same key, so the bytes are read here. Pure: the component keeps the state.
 */
export interface Line {
  value: string;
  /** 0..value.length, in UTF-16 units. */
  cursor: number;
}

export interface LineResult {
  line: Line;
  /** Enter (or a pasted line break): the text before it is typed, then the line is submitted. */
  submit: boolean;
  /** Tab was pressed (completion is the caller's). */
  tab: boolean;
}

const LEFT = new Set(['\u001b[D', '\u001bOD', '\u0002']);
const RIGHT = new Set(['\u001b[C', '\u001bOC', '\u0006']);
const HOME = new Set(['\u001b[H', '\u001bOH', '\u001b[1~', '\u001b[7~', '\u0001']);
const END = new Set(['\u001b[F', '\u001bOF', '\u001b[4~', '\u001b[8~', '\u0005']);
const DELETE = new Set(['\u001b[3~', '\u0004']);
const BACKSPACE = new Set(['\u007f', '\b']);

/** Splits raw input into keys: escape sequences, control characters, and runs of text. */
export function keysOf(data: string): string[] {
  const keys: string[] = [];
  // ESC [ params final | ESC O final | ESC + one char | a control char | a run of printable text.

  const token = /\u001b\[[0-9;]*[~A-Za-z]|\u001bO[A-Za-z]|\u001b[\s\S]?|[\u0000-\u001f\u007f]|[^\u0000-\u001f\u007f]+/g;
  for (const match of data.matchAll(token)) keys.push(match[0]);
  return keys;
}

const isWordChar = (ch: string) => !/[\s/]/.test(ch);

/** Applies raw input to the line. Keys it does not know (Up, Esc, Ctrl+C) change nothing. */
export function applyInput(start: Line, data: string): LineResult {
  let { value, cursor } = start;
  let submit = false;
  let tab = false;
  for (const key of keysOf(data)) {
    if (submit) break;
    if (key === '\r' || key === '\n') submit = true;
    else if (key === '\t') tab = true;
    else if (LEFT.has(key)) cursor = Math.max(0, cursor - 1);
    else if (RIGHT.has(key)) cursor = Math.min(value.length, cursor + 1);
    else if (HOME.has(key)) cursor = 0;
    else if (END.has(key)) cursor = value.length;
    else if (BACKSPACE.has(key)) {
      if (cursor > 0) {
        value = value.slice(0, cursor - 1) + value.slice(cursor);
        cursor--;
      }
    } else if (DELETE.has(key)) value = value.slice(0, cursor) + value.slice(cursor + 1);
    else if (key === '\u0015') {
      value = value.slice(cursor);
      cursor = 0;
    } else if (key === '\u000b') value = value.slice(0, cursor);
    else if (key === '\u0017') {
      // The word before the cursor and the separators after it, as a shell's Ctrl+W (a path loses one part).
      let at = cursor;
      while (at > 0 && !isWordChar(value[at - 1])) at--;
      while (at > 0 && isWordChar(value[at - 1])) at--;
      value = value.slice(0, at) + value.slice(cursor);
      cursor = at;
    } else if (!key.startsWith('\u001b') && key >= ' ' && key !== '\u007f') {
      value = value.slice(0, cursor) + key + value.slice(cursor);
      cursor += key.length;
    }
  }
  return { line: { value, cursor }, submit, tab };
}
