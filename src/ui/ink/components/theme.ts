import { colorEnabled } from '../../color.js';

export { colorEnabled };

/** The colour name, or undefined (plain text) when colour is off. */
export function tint(color: string): string | undefined {
  return colorEnabled() ? color : undefined;
}

export const POINTER = '>';
