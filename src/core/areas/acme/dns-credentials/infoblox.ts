/**
 * infoblox: a read of the DNS view by name from the grid's web API (WAPI) with basic authentication, what the
 * webhook needs before it writes. With --probe-update: one TXT record created in the view and deleted.
 */
import type { CheckResult } from '../../../doctor/types.js';
import type { HttpResponse } from '../../../net/http.js';
import { registerSecret } from '../../../secrets.js';
import {
  PROBE_LABEL,
  type ProviderRun,
  credential,
  fail,
  foreign,
  jsonOf,
  probeNote,
  probeValue,
  unexpected,
  type DnsFacts,
} from './shared.js';
import { INFOBLOX, PROVIDER } from '../messages/providers.js';

/** The WAPI version the webhook speaks by default. */
const WAPI = 'v2.5';

export async function checkInfoblox(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const host = credential(run, 'cluster_issuer_acme_infoblox_host')
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');
  const view = credential(run, 'cluster_issuer_acme_infoblox_view');
  const username = credential(run, 'cluster_issuer_acme_infoblox_username');
  const password = credential(run, 'cluster_issuer_acme_infoblox_password', { secret: true });
  registerSecret(`${username}:${password}`);
  const api = `https://${host}/wapi/${WAPI}`;
  const headers = { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
  const facts: DnsFacts = { provider: 'infoblox', host, view, user: username };

  const read = await run.http.request({
    url: `${api}/view?name=${encodeURIComponent(view)}`,
    headers,
    credentials: true,
    signal: run.signal,
  });
  if (read.status !== 200) return failure(INFOBLOX.readingView(view), read, facts);
  const views = jsonOf<{ name?: string }[]>(read);
  if (!Array.isArray(views)) return unexpected(INFOBLOX.readingView(view), read, INFOBLOX.checkHost, facts);
  if (!views.some((v) => v.name === view)) {
    const all = await run.http.request({
      url: `${api}/view?_return_fields=name&_max_results=20`,
      headers,
      credentials: true,
      signal: run.signal,
    });
    const names = all.status === 200 ? (jsonOf<{ name?: string }[]>(all) ?? []).map((v) => foreign(v.name, 60)) : [];
    facts.views = names;
    return fail(INFOBLOX.noView(foreign(view, 60)), INFOBLOX.putView(names), facts);
  }
  if (!run.probeUpdate)
    return { status: 'ok', message: INFOBLOX.readsView(foreign(username, 60), host, view, probeNote(run)), facts };
  if (!run.domain) {
    return { status: 'warn', message: INFOBLOX.noDomain(view), advice: INFOBLOX.giveDomain, facts };
  }

  const name = `${PROBE_LABEL}.${run.domain}`;
  const created = await run.http.request({
    method: 'POST',
    url: `${api}/record:txt`,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name, text: probeValue(), view, ttl: 60, use_ttl: true }),
    credentials: true,
    signal: run.signal,
  });
  const ref = created.status === 201 || created.status === 200 ? jsonOf<string>(created) : undefined;
  if (typeof ref !== 'string' || !ref.startsWith('record:txt/')) return failure(INFOBLOX.adding(name), created, facts);
  const deleted = await run.http.request({
    method: 'DELETE',
    url: `${api}/${ref.split('/').map(encodeURIComponent).join('/')}`,
    headers,
    credentials: true,
    signal: run.signal,
  });
  if (deleted.status !== 200)
    return fail(PROVIDER.probeNotDeleted(name, deleted.status), INFOBLOX.deleteByHand(name, view), facts);
  facts.probe = name;
  return { status: 'ok', message: INFOBLOX.probed(view, name), facts };
}

function failure(what: string, res: HttpResponse, facts: DnsFacts): CheckResult<DnsFacts> {
  facts.status = res.status;
  if (res.status === 401) {
    return fail(INFOBLOX.wrongPassword(what), INFOBLOX.checkUser, facts);
  }
  if (res.status === 403) {
    return fail(INFOBLOX.mayNot(what), INFOBLOX.grantView, facts);
  }
  const body = jsonOf<{ Error?: string; code?: string; text?: string }>(res);
  if (body?.text || body?.Error) {
    const said = foreign(body.text ?? body.Error, 200);
    const version = /version/i.test(said);
    return fail(
      INFOBLOX.failed(what, res.status, foreign(body.code ?? '', 40), said),
      version ? INFOBLOX.wapiVersion(WAPI) : INFOBLOX.checkZone,
      facts,
    );
  }
  return unexpected(what, res, INFOBLOX.checkHostPath, facts);
}
