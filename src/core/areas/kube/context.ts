/**
 * Doctor check `kube.context`: a context named with --context (or CLOUDGATE_CONTEXT, or `context:` in
 * the `discovery:` section of --config) must exist in the kubeconfig. Without this check a misspelt
 * context only made the other kube checks skip, and the run ended "ok" having checked nothing.
 */
import type { DoctorInput } from '../../doctor/input.js';
import { setting } from '../../config/settings.js';
import type { CheckResult } from '../../doctor/types.js';
import { escapeLine } from '../../escape.js';
import { firstLine, kubectl, KubectlError, KubectlMissing } from '../../kube/kubectl.js';
import { kubeOptionsFor } from '../../kube/options.js';
import { joinCapped } from '../../bounded.js';

export async function contextCheck(input: DoctorInput, signal?: AbortSignal, log?: (line: string) => void): Promise<CheckResult> {
  const wanted = setting(input, 'discovery', 'context');
  if (!wanted) return { status: 'skip', message: 'No --context given: the kube checks use the current context of kubectl.' };
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
    if (error instanceof KubectlMissing) return { status: 'skip', message: `Context "${escapeLine(wanted)}" not checked: ${error.message} ${error.advice}` };
    if (error instanceof KubectlError) return { status: 'fail', message: `kubectl config get-contexts failed: ${error.message}`, advice: 'Check KUBECONFIG and kubectl.' };
    throw error;
  }
  if (names.includes(wanted)) return { status: 'ok', message: `Context "${escapeLine(wanted)}" exists in kubeconfig ${where}.`, details: { context: wanted, kubeconfig: where } };
  // Names come from the kubeconfig and the user: escaped before they are printed.
  const shown = names.map(escapeLine);
  const name = escapeLine(wanted);
  return {
    status: 'fail',
    message: `kubectl has no context "${name}" in kubeconfig ${where}; ${shown.length ? `its contexts are: ${joinCapped(shown)}` : 'it has no context at all'}.`,
    advice: names.length
      ? `Pass --context with one of ${joinCapped(shown)} (or correct CLOUDGATE_CONTEXT / "context:" in the discovery: section of --config), or point KUBECONFIG at the file that holds "${name}".`
      : `Point KUBECONFIG at a kubeconfig that holds context "${name}".`,
    details: { context: name, kubeconfig: where, contexts: shown },
  };
}
