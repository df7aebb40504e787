/**
 * How the cmctl-like commands (status, inspect, renew) reach the cluster: kubectl with the context of
 * --context or CLOUDGATE_CONTEXT (else kubectl's current one), the --timeout of each call, and each
 * call on stderr with --verbose. The cluster is asked once whether it answers, so a missing kubectl or
 * an unreachable API server is one clear line, not a failed read.
 */
import { parseTimeout } from '../config/network.js';
import { redact } from '../secrets.js';
import { kubeAvailability, type KubectlOptions } from './kubectl.js';

export interface ToolFlags {
  context?: string;
  timeout?: string;
  verbose: boolean;
}

/** The cluster cannot be asked: no kubectl, no context, an API server that does not answer. Exit 1. */
export class ClusterUnavailable extends Error {
  readonly advice =
    'Check kubectl and the context ("kubectl config get-contexts"; --context NAME picks one) and that the API server answers ("kubectl get --raw /readyz").';
  constructor(reason: string) {
    super(`Cannot ask the cluster: ${reason}`);
    this.name = 'ClusterUnavailable';
  }
}

export function toolKubeOptions(
  flags: ToolFlags,
  env: NodeJS.ProcessEnv,
  stderr: NodeJS.WritableStream,
): KubectlOptions {
  const context = flags.context ?? (env.CLOUDGATE_CONTEXT || undefined);
  return {
    ...(context ? { context } : {}),
    env,
    timeoutMs: parseTimeout(flags.timeout),
    ...(flags.verbose ? { log: (line: string) => void stderr.write(`${redact(line)}\n`) } : {}),
  };
}

/** Asks once whether kubectl reaches the cluster; the context that answered is used from then on. */
export async function reachCluster(kube: KubectlOptions): Promise<KubectlOptions> {
  const availability = await kubeAvailability({ ...kube, log: undefined });
  if (!availability.ok) throw new ClusterUnavailable(availability.reason);
  return { ...kube, context: availability.context };
}
