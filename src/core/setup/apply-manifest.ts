/**
 * `setup --apply`: `kubectl apply -f FILE` for the written TLS Secret manifest. kubectl's absence or
 * failure is a result to report, never a reason to remove the manifest: it stays for a later apply.
 */
import { firstLine, kubectl, KubectlError, KubectlMissing, type KubectlOptions } from '../kube/kubectl.js';
import { redact } from '../secrets.js';

export interface ApplyResult {
  status: 'applied' | 'kubectl-missing' | 'failed';
  /** One line for the operator (stderr), naming the file; never a secret. */
  message: string;
  /** What to do next, for missing and failed. */
  advice?: string;
  /** kubectl's own lines ("secret/x created"), redacted. */
  output: string;
}

export type ApplyOptions = Pick<KubectlOptions, 'context' | 'kubeconfig' | 'env' | 'timeoutMs' | 'signal'>;

/**
 * `namespaces`: those of the manifest's Secrets, in its order (kubectl prints one line per object,
 * `secret/NAME created`, without the namespace).
 */
export async function applyManifest(
  file: string,
  options: ApplyOptions = {},
  namespaces: string[] = [],
): Promise<ApplyResult> {
  // The manifest is cloudgate's own fixed shape and the API server validates a kubernetes.io/tls
  // Secret itself; kubectl's client-side schema check would only add a download of the OpenAPI document.
  const args = ['apply', '--validate=false', '-f', file];
  const manual = `kubectl apply -f ${file}${options.context ? ` --context ${options.context}` : ''}`;
  try {
    const result = await kubectl(args, { ...options, timeoutMs: options.timeoutMs ?? 60_000 });
    const output = redact(result.stdout.trim());
    if (result.exitCode === 0) {
      const lines = output.split('\n').filter(Boolean);
      const said = lines.map((line, i) =>
        namespaces[i] && lines.length === namespaces.length ? `${line} in ${namespaces[i]}` : line,
      );
      return { status: 'applied', message: `Applied ${file}: ${said.join(', ')}`, output };
    }
    return {
      status: 'failed',
      message: `kubectl apply -f ${file} failed: ${firstLine(result.stderr) || `exit code ${result.exitCode}`}`,
      advice: `The manifest is kept; fix the cause (context, namespace, permissions) and run: ${manual}`,
      output: redact([output, result.stderr.trim()].filter(Boolean).join('\n')),
    };
  } catch (error) {
    if (error instanceof KubectlMissing) {
      return {
        status: 'kubectl-missing',
        message: `${error.message} The manifest ${file} was written but not applied.`,
        advice: `${error.advice} Then run: ${manual}`,
        output: '',
      };
    }
    if (error instanceof KubectlError) {
      return {
        status: 'failed',
        message: redact(error.message),
        advice: `The manifest is kept; run: ${manual}`,
        output: redact(error.result.stderr),
      };
    }
    throw error;
  }
}
