/**
 * How the operator calls this program from a shell, for the commands cloudgate prints (setup's next
 * steps): `cloudgate` when the `cloudgate` on PATH is this very program, else the path of the program
 * itself (a checkout's `bin/cloudgate.js` run through `npm run setup`, before `npm link` put it on PATH).
 */
import { realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { shellQuote } from './shell-quote.js';

const real = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/** The command word that runs `program` (the path of the running cloudgate) from a shell with `env`'s PATH. */
export function selfCommand(env: NodeJS.ProcessEnv, program: string | undefined): string {
  if (!program) return 'cloudgate';
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, 'cloudgate'))
    .find((path) => statSync(path, { throwIfNoEntry: false })?.isFile());
  const self = real(program);
  if (onPath && self && real(onPath) === self) return 'cloudgate';
  return shellQuote(self ?? program);
}

/** A printed line that runs cloudgate (`cloudgate doctor ...`, `# cloudgate oidc ...`) with the command that works here. */
export function withCommand(line: string, command: string): string {
  return command === 'cloudgate'
    ? line
    : line.replace(/^(# )?cloudgate /, (_, note: string | undefined) => `${note ?? ''}${command} `);
}
