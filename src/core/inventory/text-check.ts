/**
 * What Ansible's YAML reader refuses before it parses anything: bytes that are not UTF-8, and characters
 * YAML does not allow in a document (NUL and the other C0 controls but tab and line ends, DEL, the C1
 * controls but U+0085, lone surrogates, U+FFFE/U+FFFF). The `yaml` library reads them without a word,
 * so a file cloudgate called clean would stop the deployment: it is refused here, naming the file and
 * where, never showing the character itself.
 */
import { UsageError } from '../errors.js';
import { linePos, named } from './yaml-notices.js';

const NOT_IN_YAML = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/**
 * The text of a file read for the inventory; `utf8` says whether its bytes were valid UTF-8. `reader`:
 * who refuses such a file (PyYAML, under Ansible and the OpenStack client alike).
 */
export function checkedVarsText(
  read: { text: string; utf8?: boolean },
  what: string,
  path: string,
  reader = 'Ansible',
): string {
  const { text } = read;
  if (read.utf8 === false) {
    const at = text.indexOf('\ufffd');
    throw new UsageError(
      `${named({ what, path })} is not valid UTF-8${at >= 0 ? ` (${position(text, at)})` : ''}: ${reader} refuses to load it.`,
      "Save the file as UTF-8 (iconv -f LATIN1 -t UTF-8, or your editor's encoding setting); nothing was written.",
    );
  }
  const bad = NOT_IN_YAML.exec(text);
  if (bad) {
    const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new UsageError(
      `${named({ what, path })} holds the character U+${code} (${position(text, bad.index)}), which YAML does not allow: ${reader} refuses to load it.`,
      'Remove it (often a stray NUL or escape byte from a copy and paste; "cat -A FILE" shows where); nothing was written.',
    );
  }
  return text;
}

function position(text: string, at: number): string {
  const { line, column } = linePos(text, at);
  return `line ${line}, column ${column}`;
}
