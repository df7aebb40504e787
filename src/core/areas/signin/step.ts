/**
 * What every step of the sign-in chain shares (broker.ts, identity.ts, api.ts): its inputs and the shape
 * of its result. The steps serve both `cloudgate doctor --only signin` and `cloudgate token`; each
 * registers a token as a secret the moment it arrives, and results carry only facts about tokens.
 */
import type { HttpClient, HttpResponse } from '../../net/http.js';
import type { IdentityFlavour } from './identity.js';
import { formatLeft } from './token-facts.js';
import type { SigninSettings } from './settings.js';
import type { SigninFacts } from './facts.js';
import type { Clock } from '../../doctor/services.js';

export interface StepEnv {
  http: HttpClient;
  settings: SigninSettings;
  signal?: AbortSignal;
  /** The run's clock: token lifetimes are counted from it. */
  clock: Clock;
  /** Which paths the identity service serves, once known: shared by the steps of one run. */
  flavour?: { value?: IdentityFlavour };
}

export interface StepResult<T> {
  value: T;
  /** What the step proved, one line. */
  message: string;
  /** Set when the step worked only in a way that needs attention (becomes `warn`). */
  warning?: string;
  facts: SigninFacts;
  /** When the token the step obtained expires (ISO 8601), when the answer says. */
  expiresAt?: string;
}

/** An `expires_in` (seconds from now) as the ISO time it ends. */
export function expiresFromNow(seconds: number | undefined, clock: Clock): string | undefined {
  return seconds === undefined ? undefined : new Date(clock.now().getTime() + seconds * 1000).toISOString();
}

export function took(res: HttpResponse): string {
  return `${res.status} in ${res.durationMs} ms`;
}

export { compact } from './facts.js';

/** " (59 min left)" after a Keystone `expires_at`; empty when it does not parse. */
export function leftOf(expiresAt: string, clock: Clock): string {
  const t = Date.parse(expiresAt);
  return Number.isNaN(t) ? '' : ` (${formatLeft(Math.round((t - clock.now().getTime()) / 1000))})`;
}
