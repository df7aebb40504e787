/**
 * One colour rule for every front-end: none with NO_COLOR set to anything but the empty string
 * (https://no-color.org) or on a dumb terminal. Colours are decoration only: every state is also told
 * in words or marks, so no colour loses nothing.
 */
export function colorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb';
}

/** Colour only on a terminal, under the one colour rule (NO_COLOR, TERM=dumb). */
export function useColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY) && colorEnabled(env);
}
