/**
 * godaddy: a read of the domain (the registered domain that holds the challenge names, found by trying the
 * domain and each parent), or of the account's domain list when no domain is configured. The provider's
 * production API answers 403 to accounts under its size limit, whatever the key. With --probe-update:
 * one TXT record added and deleted.
 */
import type { CheckResult } from '../../../doctor/types.js';
import type { HttpResponse } from '../../../net/http.js';
import { registerSecret } from '../../../secrets.js';
import {
  PROBE_LABEL,
  type ProviderRun,
  credential,
  endpoint,
  fail,
  foreign,
  jsonOf,
  probeNote,
  probeValue,
  unexpected,
  zoneCandidates,
  type DnsFacts,
} from './shared.js';
import { GODADDY, PROVIDER } from '../messages/providers.js';

/** The provider's rule for its production domain API, stated where the 403 is explained. */
export const GODADDY_SIZE_LIMIT =
  'the production domain and DNS API answers only accounts with 10 or more domains or a Discount Domain Club (Premier) membership';

export async function checkGodaddy(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const key = credential(run, 'cluster_issuer_acme_godaddy_api_key', { secret: true });
  const secret = credential(run, 'cluster_issuer_acme_godaddy_secret_key', { secret: true });
  registerSecret(`${key}:${secret}`);
  const api = endpoint(run, 'CLOUDGATE_GODADDY_ENDPOINT', 'https://api.godaddy.com');
  const headers = { authorization: `sso-key ${key}:${secret}` };
  const get = (path: string) =>
    run.http.request({ url: `${api}${path}`, headers, credentials: true, signal: run.signal });
  const facts: DnsFacts = { provider: 'godaddy' };

  if (!run.domain) {
    const listed = await get('/v1/domains?limit=1');
    if (listed.status !== 200) return failure(GODADDY.listingDomains, listed, facts);
    return {
      status: 'warn',
      message: GODADDY.noDomain,
      advice: GODADDY.giveDomain,
      facts,
    };
  }
  let domain: string | undefined;
  for (const candidate of zoneCandidates(run.domain)) {
    const read = await get(`/v1/domains/${encodeURIComponent(candidate)}`);
    if (read.status === 200) {
      domain = candidate;
      facts.domainStatus = jsonOf<{ status?: string }>(read)?.status;
      break;
    }
    if (read.status !== 404) return failure(GODADDY.readingDomain(candidate), read, facts);
  }
  if (!domain) {
    return fail(GODADDY.notInAccount(run.domain), GODADDY.useOwningAccount, facts);
  }
  facts.domain = domain;
  if (!run.probeUpdate) return { status: 'ok', message: GODADDY.readsDomain(domain, probeNote(run)), facts };

  const write = await run.http.request({
    method: 'PATCH',
    url: `${api}/v1/domains/${encodeURIComponent(domain)}/records`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify([{ type: 'TXT', name: PROBE_LABEL, data: probeValue(), ttl: 600 }]),
    credentials: true,
    signal: run.signal,
  });
  if (write.status !== 200) return failure(GODADDY.adding(`${PROBE_LABEL}.${domain}`), write, facts);
  const removed = await run.http.request({
    method: 'DELETE',
    url: `${api}/v1/domains/${encodeURIComponent(domain)}/records/TXT/${PROBE_LABEL}`,
    headers,
    credentials: true,
    signal: run.signal,
  });
  if (removed.status !== 204 && removed.status !== 200) {
    return fail(
      PROVIDER.probeNotDeleted(`${PROBE_LABEL}.${domain}`, removed.status),
      GODADDY.deleteByHand(PROBE_LABEL, domain),
      facts,
    );
  }
  facts.probe = `${PROBE_LABEL}.${domain}`;
  return { status: 'ok', message: GODADDY.probed(domain, `${PROBE_LABEL}.${domain}`), facts };
}

function failure(what: string, res: HttpResponse, facts: DnsFacts): CheckResult<DnsFacts> {
  const body = jsonOf<{ code?: string; message?: string }>(res);
  const said = [body?.code, body?.message]
    .filter(Boolean)
    .map((t) => foreign(t, 100))
    .join(': ');
  facts.status = res.status;
  facts.code = body?.code;
  if (res.status === 403) {
    return fail(GODADDY.refused(what, said, GODADDY_SIZE_LIMIT), GODADDY.meetLimit, facts);
  }
  if (res.status === 401) {
    return fail(GODADDY.wrongKey(what, said), GODADDY.putProductionKey, facts);
  }
  if (said) return fail(GODADDY.failed(what, res.status, said), GODADDY.checkKeyAndDomain, facts);
  return unexpected(what, res, GODADDY.checkEndpoint, facts);
}
