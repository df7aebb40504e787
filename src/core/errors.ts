import { memberOf, textOf } from './records.js';

/** Exit codes of the command-line contract (README.md). */
export const EXIT = { ok: 0, findings: 1, usage: 2, cancelled: 130 } as const;

/** Bad usage or bad input: exit 2, nothing written. `advice` says what to do instead. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly advice?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The user cancelled (Ctrl+C, Esc at the first question, "no" at a confirmation): exit 130. */
export class CancelledError extends Error {
  constructor(message = 'Cancelled.') {
    super(message);
    this.name = 'CancelledError';
  }
}

/**
 * The files could not be written (a full disk, a folder not writable): nothing was changed, the input
 * was fine, so this is no usage error: exit 1.
 */
export class WriteError extends Error {
  constructor(
    message: string,
    readonly advice?: string,
  ) {
    super(message);
    this.name = 'WriteError';
  }
}

/** What a caught value says: an Error's message, anything else as text. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** The code Node puts on a caught error (ENOENT, EACCES, ECONNREFUSED), or undefined. */
export const codeOf = (error: unknown): string | undefined => textOf(memberOf(error, 'code'));
