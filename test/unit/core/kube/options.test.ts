import { describe, expect, it } from 'vitest';
import { kubeOptionsFor } from '../../../../src/core/kube/options.js';
import type { GivenSettings } from '../../../../src/core/config/settings.js';

const input = (over: { given?: GivenSettings; env?: NodeJS.ProcessEnv; config?: Record<string, unknown> } = {}) => ({
  given: over.given ?? {},
  env: over.env ?? {},
  config: over.config ?? {},
  cwd: '/',
  network: { timeoutMs: 7000 },
});

describe('kubectl options of a cluster check', () => {
  it("passes the run's environment and timeout, and the check's signal and log", () => {
    const env = { KUBECONFIG: '/tmp/lab.kubeconfig' };
    const signal = AbortSignal.timeout(1000);
    const log = () => undefined;
    expect(kubeOptionsFor(input({ env }), { signal, log })).toEqual({
      context: undefined,
      env,
      timeoutMs: 7000,
      signal,
      log,
    });
  });

  it('takes the context from --context, then CLOUDGATE_CONTEXT, then the discovery: section of --config', () => {
    const config = { discovery: { context: 'from-config' } };
    expect(kubeOptionsFor(input({ config })).context).toBe('from-config');
    expect(kubeOptionsFor(input({ config, env: { CLOUDGATE_CONTEXT: 'from-env' } })).context).toBe('from-env');
    expect(
      kubeOptionsFor(input({ config, env: { CLOUDGATE_CONTEXT: 'from-env' }, given: { context: 'from-flag' } }))
        .context,
    ).toBe('from-flag');
  });
});
