/**
 * Doctor check `kube.context`: a context named with --context (or CLOUDGATE_CONTEXT, `context:` in the
 * `kube:` section of --config, or the saved settings) must exist in the kubeconfig. Without this check a misspelt
 * context only made the other kube checks skip, and the run ended "ok" having checked nothing.
 */
import type { DoctorInput } from '../../doctor/input.js';
import type { RunResult } from '../../doctor/types.js';
import type { ContextFacts } from './facts.js';
import { escapeLine } from '../../escape.js';
import { firstLine, kubectl, KubectlError, KubectlMissing } from '../../kube/kubectl.js';
import { kubeOptionsFor } from '../../kube/options.js';
import { joinCapped } from '../../bounded.js';
import { CONTEXT } from './messages/cluster.js';

export async function contextCheck(
  input: DoctorInput,
  wanted: string,
  signal?: AbortSignal,
  log?: (line: string) => void,
): Promise<RunResult<ContextFacts>> {
  const where = input.env.KUBECONFIG || process.env.KUBECONFIG || '~/.kube/config';
  let names: string[];
  try {
    // Asked of kubectl without --context: the named one may be the very thing that is missing.
    const result = await kubectl(['config', 'get-contexts', '-o', 'name'], {
      ...kubeOptionsFor(input, { signal, log }),
      context: undefined,
    });
    if (result.exitCode !== 0) {
      return {
        status: 'fail',
        message: CONTEXT.cannotList(where, firstLine(result.stderr) || CONTEXT.exitCode(result.exitCode)),
        advice: CONTEXT.checkKubeconfig,
      };
    }
    names = result.stdout
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  } catch (error) {
    if (error instanceof KubectlMissing)
      return {
        unavailable: 'no-cluster',
        message: CONTEXT.notChecked(escapeLine(wanted), error.message),
        text: error.advice,
      };
    if (error instanceof KubectlError)
      return {
        status: 'fail',
        message: CONTEXT.getContextsFailed(error.message),
        advice: CONTEXT.checkKubeconfigAndKubectl,
      };
    throw error;
  }
  if (names.includes(wanted))
    return {
      status: 'ok',
      message: CONTEXT.exists(escapeLine(wanted), where),
      facts: { context: wanted, kubeconfig: where },
    };
  // Names come from the kubeconfig and the user: escaped before they are printed.
  const shown = names.map(escapeLine);
  const name = escapeLine(wanted);
  return {
    status: 'fail',
    message: CONTEXT.missing(name, where, shown.length ? joinCapped(shown) : undefined),
    advice: names.length ? CONTEXT.chooseContext(joinCapped(shown), name) : CONTEXT.findKubeconfig(name),
    facts: { context: name, kubeconfig: where, contexts: shown },
  };
}
