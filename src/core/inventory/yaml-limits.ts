/** The sizes that decide how a YAML file is read, and the refusal of a file over its limit. */
import { UsageError } from '../errors.js';
import { named } from './yaml-notices.js';

/** Above this size a top-level mapping is parsed in pieces: the parser's memory stays bounded per piece. */
export const PIECE_BYTES = 256 * 1024;

/**
 * Above this size a caller that says which keys it wants gets only those top-level entries parsed;
 * the others are kept byte for byte, unread.
 */
export const LAZY_BYTES = 1024 * 1024;

export function formatMiB(bytes: number): string {
  return `${bytes / 1024 / 1024} MiB`;
}

/** Refuses a text over `maxBytes` (UTF-8), measuring only when its length leaves it in doubt. */
export function checkSize(text: string, source: { what: string; path: string; maxBytes?: number }): void {
  if (source.maxBytes === undefined || text.length <= source.maxBytes / 3 || Buffer.byteLength(text) <= source.maxBytes)
    return;
  throw new UsageError(
    `${named(source)} is larger than ${formatMiB(source.maxBytes)}.`,
    'Check that the path names the intended file; cloudgate refuses larger files rather than slowing down.',
  );
}
