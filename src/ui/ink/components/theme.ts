/**
 * Colours are decoration only: every state is also told in words or marks, so NO_COLOR loses nothing.
 * One rule for every screen: no colour with NO_COLOR (https://no-color.org) or on a dumb terminal.
 */
export function colorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb';
}

/** The colour name, or undefined (plain text) when colour is off. */
export function tint(color: string): string | undefined {
  return colorEnabled() ? color : undefined;
}

export const POINTER = '>';
export const MARK = { error: 'x', warning: '!', info: 'i' } as const;
