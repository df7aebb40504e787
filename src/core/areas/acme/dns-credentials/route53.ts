/**
 * route53 with static keys: the caller's identity (STS GetCallerIdentity, which needs no permission, so
 * it proves the keys alone), then a read of the hosted zone: GetHostedZone with the configured id, or
 * ListHostedZonesByName when there is none (as cert-manager finds it). Requests are signed with SigV4 by
 * the AWS ecosystem's own signer. With --probe-update: one TXT record upserted and deleted.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { CheckResult } from '../../../doctor/types.js';
import type { HttpResponse } from '../../../net/http.js';
import {
  PROBE_LABEL,
  type ProviderRun,
  credential,
  endpoint,
  fail,
  foreign,
  probeNote,
  probeValue,
  unexpected,
  zoneCandidates,
  type DnsFacts,
} from './shared.js';
import { PROVIDER, ROUTE53 } from '../messages/providers.js';

const ROUTE53_VERSION = '2013-04-01';

interface Keys {
  accessKeyId: string;
  secretAccessKey: string;
}

export async function checkRoute53Static(run: ProviderRun): Promise<CheckResult<DnsFacts>> {
  const keys: Keys = {
    accessKeyId: credential(run, 'cluster_issuer_acme_route53_access_key_id', { secret: true }),
    secretAccessKey: credential(run, 'cluster_issuer_acme_route53_secret_access_key', { secret: true }),
  };
  const region = credential(run, 'cluster_issuer_acme_route53_region', { optional: true }) || 'us-east-1';
  const zoneId = credential(run, 'cluster_issuer_acme_route53_hosted_zone_id', { optional: true }).replace(
    /^\/?hostedzone\//,
    '',
  );
  const sts = endpoint(run, 'CLOUDGATE_ROUTE53_STS_ENDPOINT', `https://sts.${region}.amazonaws.com`);
  const route53 = endpoint(run, 'CLOUDGATE_ROUTE53_ENDPOINT', 'https://route53.amazonaws.com');
  const facts: DnsFacts = { provider: 'route53', auth: 'static', region, hostedZoneId: zoneId || undefined };

  const who = await signed(
    run,
    keys,
    { service: 'sts', region },
    'POST',
    sts,
    '/',
    'Action=GetCallerIdentity&Version=2011-06-15',
  );
  if (who.status !== 200) return awsFailure('GetCallerIdentity', who, facts);
  facts.arn = tag(who.body, 'Arn');
  facts.account = tag(who.body, 'Account');

  // Route 53 is global: its requests are signed for us-east-1 whatever the solver's region.
  const r53 = (method: string, path: string, body?: string) =>
    signed(run, keys, { service: 'route53', region: 'us-east-1' }, method, route53, path, body);
  let zone: { id: string; name: string } | undefined;
  if (zoneId) {
    const got = await r53('GET', `/${ROUTE53_VERSION}/hostedzone/${encodeURIComponent(zoneId)}`);
    if (got.status === 200) zone = { id: zoneId, name: (tag(got.body, 'Name') ?? '').replace(/\.$/, '') };
    else if (code(got) === 'AccessDenied') {
      // cert-manager's documented policy lists the zone's records, not the zone itself: try that read too.
      const records = await r53('GET', `/${ROUTE53_VERSION}/hostedzone/${encodeURIComponent(zoneId)}/rrset?maxitems=1`);
      if (records.status !== 200) return awsFailure('ListResourceRecordSets', records, facts);
      zone = { id: zoneId, name: '' };
      facts.note = ROUTE53.zoneUnreadable;
    } else return awsFailure('GetHostedZone', got, facts);
  } else if (run.domain) {
    for (const candidate of zoneCandidates(run.domain)) {
      const listed = await r53(
        'GET',
        `/${ROUTE53_VERSION}/hostedzonesbyname?dnsname=${encodeURIComponent(candidate)}&maxitems=1`,
      );
      if (listed.status !== 200) return awsFailure('ListHostedZonesByName', listed, facts);
      const name = (tag(listed.body, 'Name') ?? '').replace(/\.$/, '').toLowerCase();
      if (name === candidate) {
        zone = { id: (tag(listed.body, 'Id') ?? '').replace(/^\/hostedzone\//, ''), name };
        break;
      }
    }
    if (!zone) {
      return fail(ROUTE53.noZone(facts.account ?? '', run.domain), ROUTE53.setZoneId, facts);
    }
  } else {
    return {
      status: 'warn',
      message: ROUTE53.noZoneNamed(foreign(facts.arn ?? ROUTE53.callerKnown)),
      advice: ROUTE53.giveZone,
      facts,
    };
  }
  facts.hostedZoneId = zone.id;
  facts.zone = zone.name || undefined;
  const zoneText = zone.name ? `${zone.name} (${zone.id})` : zone.id;
  if (!run.probeUpdate) {
    return {
      status: 'ok',
      message: ROUTE53.readsZone(foreign(facts.arn ?? ROUTE53.theAccount), zoneText, probeNote(run)),
      facts,
    };
  }
  if (!zone.name) {
    return { status: 'warn', message: ROUTE53.zoneNameUnknown(zone.id), advice: ROUTE53.allowGetHostedZone, facts };
  }
  const record = `${PROBE_LABEL}.${zone.name}`;
  const value = probeValue();
  for (const action of ['UPSERT', 'DELETE'] as const) {
    const changed = await r53(
      'POST',
      `/${ROUTE53_VERSION}/hostedzone/${encodeURIComponent(zone.id)}/rrset`,
      changeBatch(action, record, value),
    );
    if (changed.status !== 200) {
      if (action === 'DELETE')
        return fail(
          PROVIDER.probeNotDeleted(record, `${changed.status} ${code(changed) ?? ''}`),
          ROUTE53.deleteByHand(record, zone.id),
          facts,
        );
      return awsFailure('ChangeResourceRecordSets', changed, facts);
    }
  }
  facts.probe = record;
  return { status: 'ok', message: ROUTE53.probed(zoneText, record), facts };
}

async function signed(
  run: ProviderRun,
  keys: Keys,
  scope: { service: string; region: string },
  method: string,
  base: string,
  path: string,
  body?: string,
): Promise<HttpResponse> {
  const url = new URL(base + path);
  const headers: Record<string, string> = { host: url.host };
  if (body !== undefined)
    headers['content-type'] =
      method === 'POST' && scope.service === 'sts' ? 'application/x-www-form-urlencoded' : 'application/xml';
  const signer = new SignatureV4({ ...scope, credentials: keys, sha256: Sha256 });
  const request = await signer.sign({
    method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers,
    body,
  });
  return run.http.request({
    method,
    url: url.toString(),
    headers: request.headers,
    body,
    credentials: true,
    signal: run.signal,
  });
}

function tag(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
  return m?.[1];
}

function code(res: HttpResponse): string | undefined {
  return tag(res.body, 'Code');
}

function changeBatch(action: 'UPSERT' | 'DELETE', name: string, value: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<ChangeResourceRecordSetsRequest xmlns="https://route53.amazonaws.com/doc/${ROUTE53_VERSION}/"><ChangeBatch><Comment>cloudgate doctor --probe-update</Comment><Changes><Change><Action>${action}</Action><ResourceRecordSet><Name>${name}</Name><Type>TXT</Type><TTL>60</TTL><ResourceRecords><ResourceRecord><Value>"${value}"</Value></ResourceRecord></ResourceRecords></ResourceRecordSet></Change></Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`;
}

function awsFailure(action: string, res: HttpResponse, facts: DnsFacts): CheckResult<DnsFacts> {
  const errorCode = code(res);
  const said = foreign(tag(res.body, 'Message') ?? '');
  facts.status = res.status;
  facts.code = errorCode;
  facts.action = action;
  const keyVar = 'cluster_issuer_acme_route53_access_key_id';
  switch (errorCode) {
    case 'InvalidClientTokenId':
      return fail(ROUTE53.invalidKeyId(action), ROUTE53.createKey(keyVar), facts);
    case 'SignatureDoesNotMatch':
      return fail(ROUTE53.secretMismatch(action), ROUTE53.putMatchingSecret, facts);
    case 'ExpiredToken':
      return fail(ROUTE53.expired(action), ROUTE53.useStaticKeys, facts);
    case 'RequestExpired':
      return fail(ROUTE53.clockSkew(action), ROUTE53.setClock, facts);
    case 'AccessDenied':
      return fail(
        ROUTE53.denied(action, said),
        action === 'ListHostedZonesByName' ? ROUTE53.allowListZones : ROUTE53.allowAction(action),
        facts,
      );
    case 'NoSuchHostedZone':
      return fail(ROUTE53.noSuchZone(facts.hostedZoneId, facts.account ?? '', action), ROUTE53.putZoneId, facts);
    case 'InvalidInput':
      return fail(ROUTE53.invalidInput(action, said), ROUTE53.checkZoneId, facts);
    default:
      if (errorCode)
        return fail(ROUTE53.failed(action, res.status, foreign(errorCode, 60), said), ROUTE53.checkKeysAndZone, facts);
      return unexpected(PROVIDER.failed(action), res, ROUTE53.checkEndpoint, facts);
  }
}
