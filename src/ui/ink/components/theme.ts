/** Colours are decoration only: every state is also told in words or marks, so NO_COLOR loses nothing. */
export function colorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NO_COLOR === undefined || env.NO_COLOR === '';
}

/** The colour name, or undefined (plain text) when NO_COLOR is set. */
export function tint(color: string): string | undefined {
  return colorEnabled() ? color : undefined;
}

export const POINTER = '>';
export const MARK = { error: 'x', warning: '!', info: 'i' } as const;
