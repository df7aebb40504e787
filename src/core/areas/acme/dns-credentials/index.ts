/**
 * Doctor check `acme.dns-credentials`: with the inventory's DNS-01 credentials, one harmless read that
 * proves them (per provider: see its file); never a write unless --probe-update is given, and then only
 * one TXT record `_cloudgate-probe.<zone>` added and removed.
 */
import type { Check, CheckResult } from '../../../doctor/types.js';
import type { DoctorInput } from '../../../doctor/input.js';
import { HttpError, httpClientFor } from '../../../net/http.js';
import { expectationsFrom } from '../../../config/expectations.js';
import { checkAzuredns } from './azuredns.js';
import { checkRoute53Static } from './route53.js';
import { checkCloudflare } from './cloudflare.js';
import { checkGodaddy } from './godaddy.js';
import { checkInfoblox } from './infoblox.js';
import { probeRfc2136 } from './rfc2136.js';
import { type ProviderRun, Unusable } from './shared.js';
import { SOLVER_VALUES, type Solver } from '../../../config/vocabulary.js';
import { isOneOf } from '../../../records.js';

/** One credential check per DNS-01 solver (HTTP-01 has no credentials). */
const PROVIDERS: Record<Exclude<Solver, 'http01'>, (run: ProviderRun) => Promise<CheckResult>> = {
  azuredns: checkAzuredns,
  route53: checkRoute53Static,
  cloudflare: checkCloudflare,
  godaddy: checkGodaddy,
  infoblox: checkInfoblox,
  rfc2136: probeRfc2136,
};

export function dnsCredentialsCheck(values: Record<string, unknown>, input: DoctorInput, notAcme: () => CheckResult): Check {
  return {
    id: 'acme.dns-credentials',
    group: 'acme',
    title: 'DNS-01 provider credentials',
    run: async (ctx) => {
      const expectations = expectationsFrom(values);
      if (expectations.issuerType !== 'acme') return notAcme();
      const solver = typeof values.cluster_issuer_acme_solver === 'string' ? values.cluster_issuer_acme_solver : 'http01';
      const probeUpdate = input.probeUpdate;
      if (solver === 'http01') return { status: 'skip', message: 'The ACME solver is http01: no DNS credentials are used.' };
      if (solver === 'rfc2136' && !probeUpdate) {
        return { status: 'skip', message: 'The rfc2136 TSIG key is checked by acme.rfc2136; give --probe-update to try a signed DNS update.' };
      }
      if (solver === 'route53') {
        const auth = typeof values.cluster_issuer_acme_route53_auth === 'string' ? values.cluster_issuer_acme_route53_auth : 'static';
        if (auth === 'ambient') return { status: 'skip', message: 'route53 auth is ambient: the credentials live in the cluster (cert-manager\'s environment), not in the inventory.' };
        if (auth === 'kubernetes') return { status: 'skip', message: 'route53 auth is kubernetes (keyless): the role assumption is checked by discovery.sts.' };
      }
      const provider = isOneOf(SOLVER_VALUES, solver) && solver !== 'http01' ? PROVIDERS[solver] : undefined;
      if (!provider) return { status: 'skip', message: `The ACME solver ${solver} is not a DNS provider cloudgate knows.` };
      const domain = expectations.wildcardDomain ?? (input.certificate.domain?.trim() || undefined);
      const run: ProviderRun = { values, input, http: httpClientFor(input.network), signal: ctx.signal, probeUpdate, domain };
      try {
        return await provider(run);
      } catch (error) {
        if (error instanceof Unusable) return { status: 'skip', message: error.message, reason: { code: 'not-configured', text: error.message } };
        if (error instanceof HttpError) return { status: 'fail', message: error.message, advice: error.advice, details: { provider: solver } };
        throw error;
      }
    },
  };
}
