/**
 * infoblox: a read of the DNS view by name from the grid's web API (WAPI) with basic authentication, what the
 * webhook needs before it writes. With --probe-update: one TXT record created in the view and deleted.
 */
import type { CheckResult } from '../../../doctor/types.js';
import type { HttpResponse } from '../../../net/http.js';
import { registerSecret } from '../../../secrets.js';
import { PROBE_LABEL, type ProviderRun, credential, fail, foreign, jsonOf, probeNote, probeValue, unexpected, type DnsFacts } from './shared.js';

/** The WAPI version the webhook speaks by default. */
const WAPI = 'v2.5';

export async function checkInfoblox(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const host = credential(run, 'cluster_issuer_acme_infoblox_host').replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  const view = credential(run, 'cluster_issuer_acme_infoblox_view');
  const username = credential(run, 'cluster_issuer_acme_infoblox_username');
  const password = credential(run, 'cluster_issuer_acme_infoblox_password', { secret: true });
  registerSecret(`${username}:${password}`);
  const api = `https://${host}/wapi/${WAPI}`;
  const headers = { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
  const facts: DnsFacts = { provider: 'infoblox', host, view, user: username };

  const read = await run.http.request({ url: `${api}/view?name=${encodeURIComponent(view)}`, headers, credentials: true, signal: run.signal });
  if (read.status !== 200) return failure(`Reading the view ${view}`, read, facts);
  const views = jsonOf<{ name?: string }[]>(read);
  if (!Array.isArray(views)) return unexpected(`Reading the view ${view}`, read, 'Check cluster_issuer_acme_infoblox_host: it should be the grid manager\'s address.', facts);
  if (!views.some((v) => v.name === view)) {
    const all = await run.http.request({ url: `${api}/view?_return_fields=name&_max_results=20`, headers, credentials: true, signal: run.signal });
    const names = all.status === 200 ? (jsonOf<{ name?: string }[]>(all) ?? []).map((v) => foreign(v.name, 60)) : [];
    facts.views = names;
    return fail(`The grid has no DNS view "${foreign(view, 60)}" (or this user may not see it).`,
      `Put the view that holds the zone in cluster_issuer_acme_infoblox_view${names.length ? ` (views this user sees: ${names.join(', ')})` : ''}.`, facts);
  }
  if (!run.probeUpdate) return { status: 'ok', message: `The user ${foreign(username, 60)} signs in to ${host} and reads the view ${view}.${probeNote(run)}`, facts };
  if (!run.domain) {
    return { status: 'warn', message: `The user reads the view ${view}, but no domain names the zone, so --probe-update wrote nothing.`, advice: 'Set openstack_helm_ingress_wildcard_domain or give --domain.', facts };
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
  if (typeof ref !== 'string' || !ref.startsWith('record:txt/')) return failure(`Adding the TXT record ${name}`, created, facts);
  const deleted = await run.http.request({ method: 'DELETE', url: `${api}/${ref.split('/').map(encodeURIComponent).join('/')}`, headers, credentials: true, signal: run.signal });
  if (deleted.status !== 200) return fail(`--probe-update added the TXT record ${name} but could not delete it (${deleted.status}).`, `Delete the TXT record ${name} in the view ${view} by hand.`, facts);
  facts.probe = name;
  return { status: 'ok', message: `The user reads the view ${view} and --probe-update added and removed the TXT record ${name}.`, facts };
}

function failure(what: string, res: HttpResponse, facts: DnsFacts): CheckResult<DnsFacts> {
  facts.status = res.status;
  if (res.status === 401) {
    return fail(`${what} failed: the grid refused the user name or password (401).`,
      'Check cluster_issuer_acme_infoblox_username and cluster_issuer_acme_infoblox_password, and that the user is allowed the API (its admin group must have the API access).', facts);
  }
  if (res.status === 403) {
    return fail(`${what} was refused (403): the user may not do this.`, 'Give the user\'s admin group permission on the DNS view and its zones.', facts);
  }
  const body = jsonOf<{ Error?: string; code?: string; text?: string }>(res);
  if (body?.text || body?.Error) {
    const said = foreign(body.text ?? body.Error, 200);
    const version = /version/i.test(said);
    return fail(`${what} failed (${res.status} ${foreign(body.code ?? '', 40)}: ${said}).`,
      version ? `The grid does not speak WAPI ${WAPI}; upgrade it or configure the webhook's version.` : 'Check that the zone exists in the view and the user may change it.', facts);
  }
  return unexpected(what, res, 'Check cluster_issuer_acme_infoblox_host (the grid manager\'s address) and the network path to it.', facts);
}
