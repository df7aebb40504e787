/**
 * cloudflare: the token is verified, the zone looked up by name (each parent of the domain in turn), and one
 * TXT record of it listed, the reads cert-manager makes before it writes. With --probe-update: one TXT
 * record created and deleted.
 */
import type { CheckResult } from '../../../doctor/types.js';
import type { HttpResponse } from '../../../net/http.js';
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
import { CLOUDFLARE, PROVIDER } from '../messages/providers.js';

interface Envelope<T> {
  success?: boolean;
  errors?: { code?: number; message?: string; error_chain?: { code?: number; message?: string }[] }[];
  result?: T;
}

/** A global API key: 37 hexadecimal characters (tokens are longer and use other characters). */
const GLOBAL_KEY = /^[0-9a-f]{37}$/i;

export async function checkCloudflare(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const token = credential(run, 'cluster_issuer_acme_cloudflare_api_token', { secret: true });
  const api = endpoint(run, 'CLOUDGATE_CLOUDFLARE_ENDPOINT', 'https://api.cloudflare.com/client/v4');
  const headers = { authorization: `Bearer ${token}` };
  const get = (path: string) =>
    run.http.request({ url: `${api}${path}`, headers, credentials: true, signal: run.signal });
  const facts: DnsFacts = { provider: 'cloudflare' };

  const verified = await get('/user/tokens/verify');
  const verify = jsonOf<Envelope<{ status?: string }>>(verified);
  if (verified.status !== 200 || !verify?.success) return failure(CLOUDFLARE.verifying, verified, verify, token, facts);
  const status = verify.result?.status;
  if (status !== 'active') {
    return fail(CLOUDFLARE.notActive(foreign(status ?? CLOUDFLARE.notActiveStatus, 20)), CLOUDFLARE.createToken, {
      ...facts,
      tokenStatus: status,
    });
  }
  if (!run.domain) {
    return {
      status: 'warn',
      message: CLOUDFLARE.noDomain,
      advice: CLOUDFLARE.giveDomain,
      facts,
    };
  }

  let zone: { id: string; name: string } | undefined;
  for (const candidate of zoneCandidates(run.domain)) {
    const found = await get(`/zones?name=${encodeURIComponent(candidate)}`);
    const body = jsonOf<Envelope<{ id: string; name: string }[]>>(found);
    if (found.status !== 200 || !body?.success)
      return failure(CLOUDFLARE.lookingUp(candidate), found, body, token, facts);
    zone = body.result?.find((z) => z.name?.toLowerCase() === candidate);
    if (zone) break;
  }
  if (!zone) {
    return fail(CLOUDFLARE.noZone(run.domain), CLOUDFLARE.editToken, facts);
  }
  facts.zone = zone.name;
  facts.zoneId = zone.id;
  const records = await get(`/zones/${encodeURIComponent(zone.id)}/dns_records?type=TXT&per_page=1`);
  const listed = jsonOf<Envelope<unknown[]>>(records);
  if (records.status !== 200 || !listed?.success)
    return failure(CLOUDFLARE.listing(zone.name), records, listed, token, facts);
  if (!run.probeUpdate) {
    return { status: 'ok', message: CLOUDFLARE.readsZone(zone.name, probeNote(run)), facts };
  }

  const name = `${PROBE_LABEL}.${zone.name}`;
  const created = await run.http.request({
    method: 'POST',
    url: `${api}/zones/${encodeURIComponent(zone.id)}/dns_records`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'TXT', name, content: `"${probeValue()}"`, ttl: 60 }),
    credentials: true,
    signal: run.signal,
  });
  const record = jsonOf<Envelope<{ id?: string }>>(created);
  if (created.status !== 200 || !record?.success || !record.result?.id)
    return failure(CLOUDFLARE.adding(name), created, record, token, facts);
  const deleted = await run.http.request({
    method: 'DELETE',
    url: `${api}/zones/${encodeURIComponent(zone.id)}/dns_records/${encodeURIComponent(record.result.id)}`,
    headers,
    credentials: true,
    signal: run.signal,
  });
  if (deleted.status !== 200)
    return fail(PROVIDER.probeNotDeleted(name, deleted.status), CLOUDFLARE.deleteByHand(name), facts);
  facts.probe = name;
  return { status: 'ok', message: CLOUDFLARE.probed(zone.name, name), facts };
}

function failure(
  what: string,
  res: HttpResponse,
  body: Envelope<unknown> | undefined,
  token: string,
  facts: DnsFacts,
): CheckResult<DnsFacts> {
  const errors = body?.errors ?? [];
  const codes = errors
    .flatMap((e) => [e.code, ...(e.error_chain ?? []).map((c) => c.code)])
    .filter((c): c is number => typeof c === 'number');
  const said = errors
    .map((e) => foreign(e.message ?? '', 80))
    .filter(Boolean)
    .join('; ');
  facts.status = res.status;
  facts.errorCodes = codes;
  const tokenVar = 'cluster_issuer_acme_cloudflare_api_token';
  if (codes.includes(6111) || codes.includes(6003) || (res.status === 400 && GLOBAL_KEY.test(token))) {
    return fail(
      CLOUDFLARE.notAToken(what, res.status, said, GLOBAL_KEY.test(token)),
      CLOUDFLARE.useTokenNotKey(tokenVar),
      facts,
    );
  }
  if (codes.includes(1000) || res.status === 401) {
    return fail(CLOUDFLARE.invalidToken(what, res.status, said), CLOUDFLARE.replaceToken(tokenVar), facts);
  }
  if (codes.includes(10000) || codes.includes(9109) || res.status === 403) {
    return fail(CLOUDFLARE.lacksPermission(what, res.status, said), CLOUDFLARE.editToken, facts);
  }
  if (said) return fail(CLOUDFLARE.refused(what, res.status, said), CLOUDFLARE.checkToken, facts);
  return unexpected(PROVIDER.failed(what), res, CLOUDFLARE.checkEndpoint, facts);
}
