/**
 * Text from servers and files (error bodies, discovery documents, inventory values, answer keys) may
 * carry terminal control sequences (`ESC[2J`, `ESC]0;...BEL`). Every such text is escaped before it
 * is printed, so it shows as visible `\x1b` instead of acting on the operator's terminal.
 */

// C0 controls except tab and newline, DEL, and C1 controls (U+0080-U+009F: a lone CSI is U+009B);
// then the Unicode format characters that reorder or hide what is shown (bidi embeddings, overrides and
// isolates U+202A-202E, U+2066-2069, the marks U+200E/F and U+061C, zero-width U+200B-200D, U+2060,
// U+FEFF) and the line/paragraph separators U+2028/2029: "Trojan Source" text reads differently than it is.
const FORMAT = '\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060\\u2066-\\u2069\\ufeff';
const CONTROL = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${FORMAT}]`, 'g');
const JSON_UNSAFE = new RegExp(`[\\u007f-\\u009f${FORMAT}]`, 'g');
const CONTROL_OR_NEWLINE = new RegExp(`[\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f${FORMAT}]`, 'g');

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Escapes control characters; newlines and tabs are kept (multi-line text stays multi-line). */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, visible);
}

/** Escapes control characters and newlines: for text that must stay on one line. */
export function escapeLine(text: string): string {
  return text.replace(CONTROL_OR_NEWLINE, visible);
}

/**
 * JSON for output: JSON itself escapes C0 controls, but not DEL, the C1 controls (U+0080-U+009F,
 * whose UTF-8 carries a 0x9b CSI byte) and the format characters above, which are escaped here as `\u00XX`: the document parses the same.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    JSON_UNSAFE,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Text matched literally inside a RegExp (every metacharacter escaped). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
