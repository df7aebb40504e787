import type { NetworkSettings } from '../config/network.js';
import { setting, type SettingsSource } from '../config/settings.js';
import type { KubectlOptions } from './kubectl.js';

/**
 * How every cluster check runs kubectl: the context from the settings chain (--context,
 * CLOUDGATE_CONTEXT, `context:` in the kube: section of --config, the saved context), the run's environment
 * (KUBECONFIG, CLOUDGATE_KUBECTL), the run's timeout, and the check's signal and log when given.
 */
export function kubeOptionsFor(
  input: SettingsSource & { network: Pick<NetworkSettings, 'timeoutMs'> },
  check: Pick<KubectlOptions, 'signal' | 'log'> = {},
): KubectlOptions {
  return { context: setting(input, 'kube', 'context'), env: input.env, timeoutMs: input.network.timeoutMs, ...check };
}
