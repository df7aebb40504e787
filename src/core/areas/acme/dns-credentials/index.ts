/**
 * Doctor check `acme.dns-credentials`: with the inventory's DNS-01 credentials, one harmless read that
 * proves them (per provider: see its file); never a write unless --probe-update is given, and then only
 * one TXT record `_cloudgate-probe.<zone>` added and removed.
 */
import type { Check, CheckResult, RunResult } from '../../../doctor/types.js';
import type { DoctorInput } from '../../../doctor/input.js';
import { always, firstClosed, notApplicable, notConfigured, type Gate } from '../../../doctor/gates.js';
import { HttpError, httpOf } from '../../../net/http.js';
import { expectationsFrom } from '../../../config/expectations.js';
import { setting, settingOn } from '../../../config/settings.js';
import { checkAzuredns } from './azuredns.js';
import { checkRoute53Static } from './route53.js';
import { checkCloudflare } from './cloudflare.js';
import { checkGodaddy } from './godaddy.js';
import { checkInfoblox } from './infoblox.js';
import { probeRfc2136 } from './rfc2136.js';
import { type DnsFacts, type ProviderRun, Unusable } from './shared.js';
import { SOLVER_VALUES, type Solver } from '../../../config/vocabulary.js';
import { isOneOf } from '../../../records.js';
import { CLOSED, TITLES } from '../messages.js';

/** One credential check per DNS-01 solver (HTTP-01 has no credentials). */
const PROVIDERS: Record<Exclude<Solver, 'http01'>, (run: ProviderRun) => Promise<CheckResult<DnsFacts>>> = {
  azuredns: checkAzuredns,
  route53: checkRoute53Static,
  cloudflare: checkCloudflare,
  godaddy: checkGodaddy,
  infoblox: checkInfoblox,
  rfc2136: probeRfc2136,
};

/** `--probe-update` (or `probe_update` in the acme: section): add and remove one TXT record. */
export function probeUpdateOf(input: DoctorInput): boolean {
  return settingOn(input, 'acme', 'probe_update');
}

/** Whether the inventory's solver has credentials to check here, decided when the check is listed. */
function credentialsGate(
  values: Record<string, unknown>,
  solver: string,
  probeUpdate: boolean,
  domain: string | undefined,
): Gate {
  if (solver === 'http01') return notApplicable(CLOSED.http01);
  if (solver === 'rfc2136' && !probeUpdate) return notApplicable(CLOSED.rfc2136WithoutProbe);
  if (solver === 'rfc2136' && !domain) return notConfigured(CLOSED.noZoneToUpdate.message, CLOSED.noZoneToUpdate.text);
  if (solver === 'route53') {
    const auth =
      typeof values.cluster_issuer_acme_route53_auth === 'string' ? values.cluster_issuer_acme_route53_auth : 'static';
    if (auth === 'ambient') return notApplicable(CLOSED.ambient);
    if (auth === 'kubernetes') return notApplicable(CLOSED.keyless);
  }
  if (!isOneOf(SOLVER_VALUES, solver)) return notApplicable(CLOSED.unknownSolver(solver));
  return always;
}

export function dnsCredentialsCheck(values: Record<string, unknown>, input: DoctorInput, acmeGate: Gate): Check {
  const expectations = expectationsFrom(values);
  const solver = typeof values.cluster_issuer_acme_solver === 'string' ? values.cluster_issuer_acme_solver : 'http01';
  const probeUpdate = probeUpdateOf(input);
  const domain = expectations.wildcardDomain ?? (setting(input, 'certificate', 'domain')?.trim() || undefined);
  return {
    id: 'acme.dns-credentials',
    group: 'acme',
    title: TITLES.dnsCredentials,
    gate: firstClosed(acmeGate, credentialsGate(values, solver, probeUpdate, domain)),
    run: async (ctx): Promise<RunResult<DnsFacts>> => {
      // Open only for a solver of PROVIDERS.
      const provider = PROVIDERS[solver as Exclude<Solver, 'http01'>];
      const run: ProviderRun = {
        values,
        input,
        http: httpOf(ctx.services),
        signal: ctx.signal,
        probeUpdate,
        domain,
        services: ctx.services,
      };
      try {
        return await provider(run);
      } catch (error) {
        // A credential that is vaulted, templated or unset is known only once the overrides are read.
        if (error instanceof Unusable)
          return { unavailable: 'not-configured', message: error.message, text: error.message };
        if (error instanceof HttpError)
          return { status: 'fail', message: error.message, advice: error.advice, facts: { provider: solver } };
        throw error;
      }
    },
  };
}
