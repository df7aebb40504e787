/**
 * What status, inspect and renew share: the NAMESPACE/NAME operand, kubectl's options from the flags,
 * the cluster asked once, the output (text or --json on stdout, redacted), and the exit code when the
 * cluster cannot be asked (1, the reason and the fix on stderr).
 */
import { EXIT } from '../core/errors.js';
import { escapeControl, stringifyJson } from '../core/escape.js';
import { KubectlError, KubectlMissing, type KubectlOptions } from '../core/kube/kubectl.js';
import { ClusterUnavailable, reachCluster, toolKubeOptions, type ToolFlags } from '../core/kube/tool-options.js';
import { redact } from '../core/secrets.js';
import type { CommandContext } from '../core/run-context.js';

/** Runs `body` with kubectl at the context that answers; a cluster that cannot be asked is exit 1 with why. */
export async function withCluster(
  ctx: CommandContext,
  flags: ToolFlags,
  body: (kube: KubectlOptions) => Promise<number>,
): Promise<number> {
  try {
    return await body(await reachCluster(toolKubeOptions(flags, ctx.env, ctx.stderr)));
  } catch (error) {
    if (!(error instanceof ClusterUnavailable || error instanceof KubectlError || error instanceof KubectlMissing))
      throw error;
    ctx.stderr.write(`${escapeControl(redact(`error: ${error.message}`))}\n  ${escapeControl(redact(error.advice))}\n`);
    return EXIT.findings;
  }
}

/** The result on stdout: JSON, or the text lines; secrets masked in both. */
export function print(ctx: CommandContext, json: boolean, value: unknown, lines: () => string[]): void {
  ctx.stdout.write(redact(json ? `${stringifyJson(value, 2)}\n` : `${escapeControl(lines().join('\n'))}\n`));
}
