/**
 * azuredns: a client-credentials token from the identity platform for the service principal, then a
 * read of the hosted zone in its resource group and subscription (what cert-manager does before each
 * challenge). With --probe-update: one TXT record set put and deleted.
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
  type DnsFacts,
} from './shared.js';
import { AZUREDNS, PROVIDER } from '../messages/providers.js';

const API_VERSION = '2018-05-01';
/** The token is for the resource manager whatever address the tests give it. */
const SCOPE = 'https://management.azure.com/.default';

interface TokenError {
  error?: string;
  error_description?: string;
  error_codes?: number[];
}
interface ArmError {
  error?: { code?: string; message?: string };
}

export async function checkAzuredns(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const tenant = credential(run, 'cluster_issuer_acme_azuredns_tenant_id');
  const clientId = credential(run, 'cluster_issuer_acme_azuredns_client_id');
  const secret = credential(run, 'cluster_issuer_acme_azuredns_client_secret', { secret: true });
  const subscription = credential(run, 'cluster_issuer_acme_azuredns_subscription_id');
  const group = credential(run, 'cluster_issuer_acme_azuredns_resourcegroup_name');
  const zone = credential(run, 'cluster_issuer_acme_azuredns_hostedzone_name').replace(/\.$/, '');
  const login = endpoint(run, 'CLOUDGATE_AZUREDNS_LOGIN_ENDPOINT', 'https://login.microsoftonline.com');
  const arm = endpoint(run, 'CLOUDGATE_AZUREDNS_ENDPOINT', 'https://management.azure.com');
  const facts: DnsFacts = { provider: 'azuredns', tenant, clientId, subscription, resourceGroup: group, zone };

  const tokenRes = await run.http.request({
    method: 'POST',
    url: `${login}/${encodeURIComponent(tenant)}/oauth2/v2.0/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
      scope: SCOPE,
    }).toString(),
    credentials: true,
    signal: run.signal,
  });
  if (tokenRes.status !== 200) return tokenFailure(tokenRes.status, jsonOf<TokenError>(tokenRes), tokenRes, facts);
  const token = jsonOf<{ access_token?: string }>(tokenRes)?.access_token;
  if (!token) return unexpected(AZUREDNS.noToken, tokenRes, AZUREDNS.checkLoginEndpoint(login), facts);
  registerSecret(token);

  const zoneUrl = `${arm}/subscriptions/${encodeURIComponent(subscription)}/resourceGroups/${encodeURIComponent(group)}/providers/Microsoft.Network/dnsZones/${encodeURIComponent(zone)}`;
  const auth = { authorization: `Bearer ${token}` };
  const read = await run.http.request({
    url: `${zoneUrl}?api-version=${API_VERSION}`,
    headers: auth,
    credentials: true,
    signal: run.signal,
  });
  if (read.status !== 200) return armFailure('read', read, facts);
  const props = jsonOf<{ properties?: { numberOfRecordSets?: number; nameServers?: string[] } }>(read)?.properties;
  facts.recordSets = props?.numberOfRecordSets;
  facts.nameServers = props?.nameServers;
  if (!run.probeUpdate) {
    return { status: 'ok', message: AZUREDNS.readsZone(tenant, zone, group, probeNote(run)), facts };
  }

  const recordUrl = `${zoneUrl}/TXT/${PROBE_LABEL}?api-version=${API_VERSION}`;
  const put = await run.http.request({
    method: 'PUT',
    url: recordUrl,
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ properties: { TTL: 60, TXTRecords: [{ value: [probeValue()] }] } }),
    credentials: true,
    signal: run.signal,
  });
  if (put.status !== 200 && put.status !== 201) return armFailure('write', put, facts);
  const del = await run.http.request({
    method: 'DELETE',
    url: recordUrl,
    headers: auth,
    credentials: true,
    signal: run.signal,
  });
  if (del.status !== 200 && del.status !== 204) {
    return fail(
      PROVIDER.probeNotDeleted(`${PROBE_LABEL}.${zone}`, del.status),
      AZUREDNS.deleteByHand(PROBE_LABEL, zone),
      facts,
    );
  }
  facts.probe = `${PROBE_LABEL}.${zone}`;
  return { status: 'ok', message: AZUREDNS.probed(zone, `${PROBE_LABEL}.${zone}`), facts };
}

function tokenFailure(
  status: number,
  body: TokenError | undefined,
  res: HttpResponse,
  facts: DnsFacts,
): CheckResult<DnsFacts> {
  const codes = body?.error_codes ?? [];
  const said = foreign(body?.error_description?.split(/\r?\n/)[0] ?? '', 200);
  const secretVar = 'cluster_issuer_acme_azuredns_client_secret';
  facts.status = status;
  facts.error = body?.error;
  facts.errorCodes = codes;
  if (codes.includes(7000215)) {
    return fail(AZUREDNS.invalidSecret, AZUREDNS.putSecretValue(secretVar, facts.clientId), facts);
  }
  if (codes.includes(7000222)) {
    return fail(AZUREDNS.secretExpired, AZUREDNS.renewSecret(secretVar, facts.clientId), facts);
  }
  if (codes.includes(90002) || codes.includes(900023)) {
    return fail(AZUREDNS.noTenant(facts.tenant, codes.includes(90002)), AZUREDNS.putTenantId, facts);
  }
  if (codes.includes(700016)) {
    return fail(AZUREDNS.noApplication(facts.tenant, facts.clientId), AZUREDNS.checkClientId, facts);
  }
  if (body?.error) {
    return fail(AZUREDNS.refusedPrincipal(status, foreign(body.error, 40), said), AZUREDNS.checkPrincipal, facts);
  }
  return unexpected(AZUREDNS.tokenRequestFailed, res, AZUREDNS.checkLoginPath, facts);
}

function armFailure(action: 'read' | 'write', res: HttpResponse, facts: DnsFacts): CheckResult<DnsFacts> {
  const error = jsonOf<ArmError>(res)?.error;
  const code = error?.code ?? '';
  const { zone, resourceGroup, subscription, clientId } = facts;
  facts.status = res.status;
  facts.code = code || undefined;
  const role = AZUREDNS.assignRole(zone, resourceGroup, clientId);
  if (code === 'AuthorizationFailed') {
    return fail(action === 'read' ? AZUREDNS.mayNotRead(zone) : AZUREDNS.mayNotWrite(zone), role, facts);
  }
  if (code === 'ResourceNotFound') {
    return fail(AZUREDNS.noZone(resourceGroup, zone), AZUREDNS.checkZoneName, facts);
  }
  if (code === 'ResourceGroupNotFound') {
    return fail(AZUREDNS.noGroup(resourceGroup), AZUREDNS.checkGroup, facts);
  }
  if (code === 'SubscriptionNotFound' || code === 'InvalidSubscriptionId') {
    return fail(AZUREDNS.noSubscription(subscription, res.status, code), AZUREDNS.checkSubscription, facts);
  }
  if (code === 'InvalidAuthenticationTokenTenant') {
    return fail(AZUREDNS.otherTenant(subscription, facts.tenant), AZUREDNS.useOwningTenant, facts);
  }
  if (error?.message) {
    return fail(AZUREDNS.refusedZone(action, zone, res.status, foreign(code, 60), foreign(error.message)), role, facts);
  }
  return unexpected(AZUREDNS.readFailed(zone), res, AZUREDNS.checkEndpoint, facts);
}
