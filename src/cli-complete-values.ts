/**
 * `cloudgate __complete KIND`: the values a completion script cannot know itself, read as a run reads
 * them, one a line: `cloud` (clouds.yaml's and secure.yaml's entries, OS_CLIENT_CONFIG_FILE honoured),
 * `context` (the kubeconfig's contexts, KUBECONFIG honoured), `only` (the doctor's groups, as this version
 * of the program knows them, so a completion script saved long ago still offers them). Hidden: nothing on stderr, exit 0 even when
 * nothing is found or a file is broken, so a shell never prints an error under the command line.
 */
import type { CommandContext } from './core/run-context.js';

export async function completeValues(
  args: string[],
  ctx: Pick<CommandContext, 'env' | 'cwd' | 'stdout'>,
): Promise<number> {
  let values: string[] = [];
  try {
    if (args[0] === 'cloud') values = await (await import('./core/config/clouds-yaml.js')).cloudNames(ctx.env, ctx.cwd);
    if (args[0] === 'context')
      values = (await (await import('./core/config/kubeconfig.js')).kubeContexts(ctx.env)).names;
    if (args[0] === 'only') values = [...(await import('./core/areas/index.js')).GROUPS];
  } catch {
    values = [];
  }
  // A name with a line break would complete as two; none is a real cloud or context.
  for (const value of values.filter((v) => !/[\r\n]/.test(v))) ctx.stdout.write(`${value}\n`);
  return 0;
}
