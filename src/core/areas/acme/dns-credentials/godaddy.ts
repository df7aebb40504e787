/**
 * godaddy: a read of the domain (the registered domain that holds the challenge names, found by trying the
 * domain and each parent), or of the account's domain list when no domain is configured. The provider's
 * production API answers 403 to accounts under its size limit, whatever the key. With --probe-update:
 * one TXT record added and deleted.
 */
import type { CheckResult } from '../../../doctor/types.js';
import type { HttpResponse } from '../../../net/http.js';
import { registerSecret } from '../../../secrets.js';
import { PROBE_LABEL, type ProviderRun, credential, endpoint, fail, foreign, jsonOf, probeNote, probeValue, unexpected, zoneCandidates, type DnsFacts } from './shared.js';

/** The provider's rule for its production domain API, stated where the 403 is explained. */
export const GODADDY_SIZE_LIMIT = 'the production domain and DNS API answers only accounts with 10 or more domains or a Discount Domain Club (Premier) membership';

export async function checkGodaddy(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const key = credential(run, 'cluster_issuer_acme_godaddy_api_key', { secret: true });
  const secret = credential(run, 'cluster_issuer_acme_godaddy_secret_key', { secret: true });
  registerSecret(`${key}:${secret}`);
  const api = endpoint(run, 'CLOUDGATE_GODADDY_ENDPOINT', 'https://api.godaddy.com');
  const headers = { authorization: `sso-key ${key}:${secret}` };
  const get = (path: string) => run.http.request({ url: `${api}${path}`, headers, credentials: true, signal: run.signal });
  const facts: DnsFacts = { provider: 'godaddy' };

  if (!run.domain) {
    const listed = await get('/v1/domains?limit=1');
    if (listed.status !== 200) return failure('Listing the account\'s domains', listed, facts);
    return {
      status: 'warn',
      message: 'The API key and secret are accepted and the account\'s domains are readable, but no domain names the zone to read.',
      advice: 'Set openstack_helm_ingress_wildcard_domain or give --domain to check the domain itself.',
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
    if (read.status !== 404) return failure(`Reading the domain ${candidate}`, read, facts);
  }
  if (!domain) {
    return fail(`The account has no domain ${run.domain} or any parent of it (404).`, 'Use the API key of the account that holds the domain (cluster_issuer_acme_godaddy_api_key / _secret_key).', facts);
  }
  facts.domain = domain;
  if (!run.probeUpdate) return { status: 'ok', message: `The API key reads the domain ${domain}.${probeNote(run)}`, facts };

  const write = await run.http.request({
    method: 'PATCH',
    url: `${api}/v1/domains/${encodeURIComponent(domain)}/records`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify([{ type: 'TXT', name: PROBE_LABEL, data: probeValue(), ttl: 600 }]),
    credentials: true,
    signal: run.signal,
  });
  if (write.status !== 200) return failure(`Adding the TXT record ${PROBE_LABEL}.${domain}`, write, facts);
  const removed = await run.http.request({ method: 'DELETE', url: `${api}/v1/domains/${encodeURIComponent(domain)}/records/TXT/${PROBE_LABEL}`, headers, credentials: true, signal: run.signal });
  if (removed.status !== 204 && removed.status !== 200) {
    return fail(`--probe-update added the TXT record ${PROBE_LABEL}.${domain} but could not delete it (${removed.status}).`, `Delete the TXT record ${PROBE_LABEL} of ${domain} by hand.`, facts);
  }
  facts.probe = `${PROBE_LABEL}.${domain}`;
  return { status: 'ok', message: `The API key reads the domain ${domain} and --probe-update added and removed the TXT record ${PROBE_LABEL}.${domain}.`, facts };
}

function failure(what: string, res: HttpResponse, facts: DnsFacts): CheckResult<DnsFacts> {
  const body = jsonOf<{ code?: string; message?: string }>(res);
  const said = [body?.code, body?.message].filter(Boolean).map((t) => foreign(t, 100)).join(': ');
  facts.status = res.status;
  facts.code = body?.code;
  if (res.status === 403) {
    return fail(`${what} was refused (403${said ? ` ${said}` : ''}): ${GODADDY_SIZE_LIMIT}.`,
      'Check that the account meets that limit (or ask the provider to enable API access); a key made for the test environment (OTE) does not work on production either. Otherwise move the zone to another DNS-01 provider.', facts);
  }
  if (res.status === 401) {
    return fail(`${what} failed: the API key or secret is wrong (401${said ? ` ${said}` : ''}).`,
      'Put a production API key and its secret in cluster_issuer_acme_godaddy_api_key and cluster_issuer_acme_godaddy_secret_key.', facts);
  }
  if (said) return fail(`${what} failed (${res.status} ${said}).`, 'Check the API key, its secret and the domain.', facts);
  return unexpected(what, res, 'Check CLOUDGATE_GODADDY_ENDPOINT and the network path to the provider.', facts);
}
