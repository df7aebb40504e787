/**
 * `~` and `~/...` as the shell would expand them, for paths typed where no shell expands them: the
 * answers of the walkthrough's questions, a saved setting, clouds.yaml's cacert.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function expandTilde(path: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  if (path === '~') return home;
  return path.startsWith('~/') ? join(home, path.slice(2)) : path;
}

/** A vault id typed as `LABEL@~/file` or `~/file`: the file part expanded. */
export function expandVaultId(id: string, env: NodeJS.ProcessEnv): string {
  const at = id.indexOf('@');
  return at === -1 ? expandTilde(id, env) : `${id.slice(0, at + 1)}${expandTilde(id.slice(at + 1), env)}`;
}
