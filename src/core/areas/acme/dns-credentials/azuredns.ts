/**
 * azuredns: a client-credentials token from the identity platform for the service principal, then a
 * read of the hosted zone in its resource group and subscription (what cert-manager does before each
 * challenge). With --probe-update: one TXT record set put and deleted.
 */
import type { CheckResult } from '../../../doctor/types.js';
import type { HttpResponse } from '../../../net/http.js';
import { registerSecret } from '../../../secrets.js';
import { PROBE_LABEL, type ProviderRun, credential, endpoint, fail, foreign, jsonOf, probeNote, probeValue, unexpected, type DnsFacts } from './shared.js';

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
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: SCOPE }).toString(),
    credentials: true,
    signal: run.signal,
  });
  if (tokenRes.status !== 200) return tokenFailure(tokenRes.status, jsonOf<TokenError>(tokenRes), tokenRes, facts);
  const token = jsonOf<{ access_token?: string }>(tokenRes)?.access_token;
  if (!token) return unexpected('The identity platform gave no access token', tokenRes, `Check CLOUDGATE_AZUREDNS_LOGIN_ENDPOINT (${login}).`, facts);
  registerSecret(token);

  const zoneUrl = `${arm}/subscriptions/${encodeURIComponent(subscription)}/resourceGroups/${encodeURIComponent(group)}/providers/Microsoft.Network/dnsZones/${encodeURIComponent(zone)}`;
  const auth = { authorization: `Bearer ${token}` };
  const read = await run.http.request({ url: `${zoneUrl}?api-version=${API_VERSION}`, headers: auth, credentials: true, signal: run.signal });
  if (read.status !== 200) return armFailure('read', read, facts);
  const props = jsonOf<{ properties?: { numberOfRecordSets?: number; nameServers?: string[] } }>(read)?.properties;
  facts.recordSets = props?.numberOfRecordSets;
  facts.nameServers = props?.nameServers;
  if (!run.probeUpdate) {
    return { status: 'ok', message: `The service principal signs in to tenant ${tenant} and reads the zone ${zone} in resource group ${group}.${probeNote(run)}`, facts };
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
  const del = await run.http.request({ method: 'DELETE', url: recordUrl, headers: auth, credentials: true, signal: run.signal });
  if (del.status !== 200 && del.status !== 204) {
    return fail(`--probe-update added the TXT record ${PROBE_LABEL}.${zone} but could not delete it (${del.status}).`, `Delete the record set ${PROBE_LABEL} (TXT) in the zone ${zone} by hand.`, facts);
  }
  facts.probe = `${PROBE_LABEL}.${zone}`;
  return { status: 'ok', message: `The service principal reads the zone ${zone} and --probe-update added and removed the TXT record ${PROBE_LABEL}.${zone}.`, facts };
}

function tokenFailure(status: number, body: TokenError | undefined, res: HttpResponse, facts: DnsFacts): CheckResult<DnsFacts> {
  const codes = body?.error_codes ?? [];
  const said = foreign(body?.error_description?.split(/\r?\n/)[0] ?? '', 200);
  const secretVar = 'cluster_issuer_acme_azuredns_client_secret';
  facts.status = status;
  facts.error = body?.error;
  facts.errorCodes = codes;
  if (codes.includes(7000215)) {
    return fail(`The identity platform refused the client secret (AADSTS7000215: invalid client secret).`,
      `Put the secret's value, not its id, in ${secretVar}: create a new client secret for the app registration ${facts.clientId}, copy its Value once shown, and update the inventory.`, facts);
  }
  if (codes.includes(7000222)) {
    return fail(`The client secret has expired (AADSTS7000222).`,
      `Create a new client secret for the app registration ${facts.clientId}, put it in ${secretVar} and redeploy; note its expiry date.`, facts);
  }
  if (codes.includes(90002) || codes.includes(900023)) {
    return fail(`The tenant ${facts.tenant} does not exist (${codes.includes(90002) ? 'AADSTS90002: tenant not found' : 'AADSTS900023: not a tenant id'}).`,
      'Put the directory (tenant) id of the service principal in cluster_issuer_acme_azuredns_tenant_id: the GUID shown on the app registration\'s overview.', facts);
  }
  if (codes.includes(700016)) {
    return fail(`The tenant ${facts.tenant} has no application ${facts.clientId} (AADSTS700016).`,
      'Check cluster_issuer_acme_azuredns_client_id (the application (client) id) and that the app registration lives in this tenant.', facts);
  }
  if (body?.error) {
    return fail(`The identity platform refused the service principal (${status} ${foreign(body.error, 40)}${said ? `: ${said}` : ''}).`,
      'Check the tenant id, client id and client secret of the service principal.', facts);
  }
  return unexpected('The identity platform token request failed', res, 'Check CLOUDGATE_AZUREDNS_LOGIN_ENDPOINT and the network path to the identity platform.', facts);
}

function armFailure(action: 'read' | 'write', res: HttpResponse, facts: DnsFacts): CheckResult<DnsFacts> {
  const error = jsonOf<ArmError>(res)?.error;
  const code = error?.code ?? '';
  const { zone, resourceGroup, subscription, clientId } = facts;
  facts.status = res.status;
  facts.code = code || undefined;
  const role = `Assign the role "DNS Zone Contributor" on the zone ${zone} (or its resource group ${resourceGroup}) to the service principal ${clientId}; assignments take a few minutes to apply.`;
  if (code === 'AuthorizationFailed') {
    return fail(action === 'read'
      ? `The service principal has no role that lets it read the zone ${zone} (403 AuthorizationFailed).`
      : `The service principal may read but not change the zone ${zone} (403 AuthorizationFailed on the probe record).`, role, facts);
  }
  if (code === 'ResourceNotFound') {
    return fail(`The resource group ${resourceGroup} has no DNS zone ${zone} (404 ResourceNotFound).`,
      'Check cluster_issuer_acme_azuredns_hostedzone_name (the zone name, e.g. example.com) and cluster_issuer_acme_azuredns_resourcegroup_name.', facts);
  }
  if (code === 'ResourceGroupNotFound') {
    return fail(`The subscription has no resource group ${resourceGroup} (404 ResourceGroupNotFound).`, 'Check cluster_issuer_acme_azuredns_resourcegroup_name.', facts);
  }
  if (code === 'SubscriptionNotFound' || code === 'InvalidSubscriptionId') {
    return fail(`The subscription ${subscription} was not found (${res.status} ${code}).`, 'Check cluster_issuer_acme_azuredns_subscription_id.', facts);
  }
  if (code === 'InvalidAuthenticationTokenTenant') {
    return fail(`The subscription ${subscription} belongs to another tenant than ${facts.tenant} (401 InvalidAuthenticationTokenTenant).`,
      'Put the tenant that owns the subscription in cluster_issuer_acme_azuredns_tenant_id (and use a service principal of that tenant).', facts);
  }
  if (error?.message) {
    return fail(`The resource manager refused to ${action} the zone ${zone} (${res.status} ${foreign(code, 60)}: ${foreign(error.message)}).`, role, facts);
  }
  return unexpected(`Reading the zone ${zone} failed`, res, 'Check CLOUDGATE_AZUREDNS_ENDPOINT and the network path to the resource manager.', facts);
}
