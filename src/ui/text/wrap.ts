/**
 * Word wrapping for a report shown on a terminal: a line longer than the width breaks at spaces, its
 * continuation indented under its text, so a word is never cut at the screen edge. A single word
 * longer than the width (a URL, a path) stays whole: cutting it would break copying it.
 */
const ANSI = /\x1b\[[0-9;]*m/g;

/** Columns a line takes, colour codes aside (each character counted as one). */
export function visibleLength(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/** Narrower than this, wrapping does more harm than good: lines are left as they are. */
const MIN_WIDTH = 20;

export function wrapLine(line: string, width: number | undefined): string[] {
  if (!width || width < MIN_WIDTH || visibleLength(line) <= width) return [line];
  const indent = /^ */.exec(line)![0].length;
  // Continuations go under the text of a check or advice line ("    ✓ " / "      → ").
  const hanging = ' '.repeat(Math.min(indent + 2, Math.floor(width / 2)));
  const out: string[] = [];
  let current = ' '.repeat(indent);
  let length = indent;
  let empty = true;
  for (const word of line.slice(indent).split(' ')) {
    const size = visibleLength(word);
    if (!empty && length + 1 + size > width) {
      out.push(current);
      current = hanging + word;
      length = hanging.length + size;
    } else {
      current += (empty ? '' : ' ') + word;
      length += (empty ? 0 : 1) + size;
    }
    empty = false;
  }
  out.push(current);
  return out;
}

export function wrapText(text: string, width: number | undefined): string {
  if (!width) return text;
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, width))
    .join('\n');
}
