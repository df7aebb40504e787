/** Doctor group `signin`: its modules load only when its checks are asked for; its own metric families. */
import { lazyArea } from '../../doctor/area.js';
import type { AreaMetric } from '../../doctor/metrics.js';
import type { CheckOutcome } from '../../doctor/types.js';

const ran = (o: CheckOutcome) => o.status !== 'skip';
/** A step that did its part: it passed, or the settings make it unnecessary (a subject token is given). */
const didItsPart = (o: CheckOutcome) => o.status === 'ok' || o.status === 'warn' || o.reason?.code === 'not-applicable';

const METRICS: readonly AreaMetric[] = [
  {
    name: 'cloudgate_signin_success',
    help: 'Whether the federated sign-in chain worked end to end in the last run (1) or not (0).',
    // Only when the chain was tried: an unconfigured sign-in is all skips, not a failure.
    samples: (outcomes) => (outcomes.some(ran) ? [{ labels: {}, value: outcomes.every(didItsPart) ? 1 : 0 }] : []),
  },
  {
    name: 'cloudgate_signin_step_duration_seconds',
    help: 'How long each step of the sign-in chain took in the last run.',
    samples: (outcomes) =>
      outcomes
        .filter(ran)
        .map((o) => ({ labels: { step: o.id.slice(o.group.length + 1) }, value: o.durationMs / 1000 })),
  },
];

export const area = lazyArea('signin', 'Federated sign-in chain', [() => import('./checks.js')], METRICS);
