/**
 * Text from servers and files (error bodies, discovery documents, inventory values, answer keys) may
 * carry terminal control sequences (`ESC[2J`, `ESC]0;...BEL`). Every such text is escaped before it
 * is printed, so it shows as visible `\x1b` instead of acting on the operator's terminal.
 */

// C0 controls except tab and newline, DEL, and C1 controls (U+0080-U+009F: a lone CSI is U+009B).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const CONTROL_OR_NEWLINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

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
 * JSON for output: JSON itself escapes C0 controls, but not DEL and the C1 controls (U+0080-U+009F,
 * whose UTF-8 carries a 0x9b CSI byte), which are escaped here as `\u00XX`: the document parses the same.
 */
export function stringifyJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(/[\u007f-\u009f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
