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

export async function contextCheck(input: DoctorInput, wanted: string, signal?: AbortSignal, log?: (line: string) => void): Promise<RunResult<ContextFacts>> {
  const where = input.env.KUBECONFIG || process.env.KUBECONFIG || '~/.kube/config';
  let names: string[];
  try {
    // Asked of kubectl without --context: the named one may be the very thing that is missing.
    const result = await kubectl(['config', 'get-contexts', '-o', 'name'], { ...kubeOptionsFor(input, { signal, log }), context: undefined });
    if (result.exitCode !== 0) {
      return {
        status: 'fail',
        message: `kubectl could not list the contexts of kubeconfig ${where}: ${firstLine(result.stderr) || `exit code ${result.exitCode}`}.`,
        advice: 'Check KUBECONFIG and that the file is readable and valid ("kubectl config view").',
      };
    }
    names = result.stdout.split('\n').map((line) => line.trim()).filter(Boolean);
  } catch (error) {
    if (error instanceof KubectlMissing) return { unavailable: 'no-cluster', message: `Context "${escapeLine(wanted)}" not checked: ${error.message}`, text: error.advice };
    if (error instanceof KubectlError) return { status: 'fail', message: `kubectl config get-contexts failed: ${error.message}`, advice: 'Check KUBECONFIG and kubectl.' };
    throw error;
  }
  if (names.includes(wanted)) return { status: 'ok', message: `Context "${escapeLine(wanted)}" exists in kubeconfig ${where}.`, facts: { context: wanted, kubeconfig: where } };
  // Names come from the kubeconfig and the user: escaped before they are printed.
  const shown = names.map(escapeLine);
  const name = escapeLine(wanted);
  return {
    status: 'fail',
    message: `kubectl has no context "${name}" in kubeconfig ${where}; ${shown.length ? `its contexts are: ${joinCapped(shown)}` : 'it has no context at all'}.`,
    advice: names.length
      ? `Pass --context with one of ${joinCapped(shown)} (or correct CLOUDGATE_CONTEXT, "context:" in the kube: section of --config, or the saved context: cloudgate config set context NAME), or point KUBECONFIG at the file that holds "${name}".`
      : `Point KUBECONFIG at a kubeconfig that holds context "${name}".`,
    facts: { context: name, kubeconfig: where, contexts: shown },
  };
}
