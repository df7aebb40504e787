/**
 * One read-only call to the DNS API (route53) with temporary credentials, signed with SigV4 by
 * the provider's own signing library. With a hosted zone id: the zone's record sets, first page of
 * one (`ListResourceRecordSets`, an action cert-manager needs anyway, so a role granted
 * exactly the documented permissions passes); without one: `ListHostedZonesByName`, the lookup the
 * cert-manager then makes itself.
 */
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { CheckResult } from '../../doctor/types.js';
import type { StsFacts } from './facts.js';
import { HttpError, type HttpClient } from '../../net/http.js';
import { awsError, xmlText } from './aws-xml.js';
import { DNS_READ, ROLE, STS_REFUSAL } from './messages/keyless.js';

export interface TemporaryCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
}

/** The actions cert-manager's DNS-01 solver uses (and so the role must be granted). */
export const DNS_ACTIONS = [
  'route53:GetChange',
  'route53:ChangeResourceRecordSets',
  'route53:ListResourceRecordSets',
  'route53:ListHostedZonesByName',
];

/** The DNS API's global endpoint and signing region per partition. */
const PARTITIONS: Record<string, { url: string; region: string }> = {
  aws: { url: 'https://route53.amazonaws.com', region: 'us-east-1' },
  'aws-cn': { url: 'https://route53.amazonaws.com.cn', region: 'cn-northwest-1' },
  'aws-us-gov': { url: 'https://route53.us-gov.amazonaws.com', region: 'us-gov-west-1' },
};

export function dnsEndpoint(env: NodeJS.ProcessEnv, partition: string): { url: string; region: string } {
  const known = PARTITIONS[partition] ?? PARTITIONS.aws;
  return { url: (env.CLOUDGATE_ROUTE53_ENDPOINT || known.url).replace(/\/+$/, ''), region: known.region };
}

/** `/hostedzone/Z123` and `Z123` are the same id. */
export function zoneId(id: string): string {
  return id.trim().replace(/^\/?hostedzone\//, '');
}

export interface DnsReadInput {
  http: HttpClient;
  endpoint: { url: string; region: string };
  credentials: TemporaryCredentials;
  hostedZoneId?: string;
  /** For the lookup by name when no zone id is set. */
  domain?: string;
  signal: AbortSignal;
}

export interface DnsReadOutcome {
  ok: boolean;
  action: string;
  status?: number;
  code?: string;
  message?: string;
  /** What the read found (zone name or count), for the ok message. */
  found?: string;
}

export async function readDns(input: DnsReadInput): Promise<DnsReadOutcome> {
  const base = new URL(input.endpoint.url);
  const id = input.hostedZoneId ? zoneId(input.hostedZoneId) : undefined;
  const action = id ? 'route53:ListResourceRecordSets' : 'route53:ListHostedZonesByName';
  const path = `${base.pathname.replace(/\/+$/, '')}${id ? `/2013-04-01/hostedzone/${encodeURIComponent(id)}/rrset` : '/2013-04-01/hostedzonesbyname'}`;
  const query: Record<string, string> = { maxitems: '1', ...(!id && input.domain ? { dnsname: input.domain } : {}) };
  const signer = new SignatureV4({
    credentials: input.credentials,
    region: input.endpoint.region,
    service: 'route53',
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'GET',
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port ? Number(base.port) : undefined,
    path,
    query,
    headers: { host: base.host },
  });
  const url = `${base.origin}${path}?${new URLSearchParams(query).toString()}`;
  const res = await input.http.request({
    url,
    headers: { ...signed.headers, accept: 'application/xml' },
    credentials: true,
    signal: input.signal,
  });
  if (res.status === 200) {
    const found = id
      ? DNS_READ.zone(id)
      : (() => {
          const name = xmlText(res.body, 'Name');
          return name ? DNS_READ.zone(name) : DNS_READ.noZone;
        })();
    return { ok: true, action, status: 200, found };
  }
  const error = awsError(res.body);
  return { ok: false, action, status: res.status, code: error?.code, message: error?.message };
}

/** A refused read, as a check result: meaning and fix. */
export function dnsRefusal(
  outcome: DnsReadOutcome,
  ctx: { roleName: string; hostedZoneId?: string; policyHint: string },
): CheckResult<StsFacts> {
  const facts: StsFacts = {
    action: outcome.action,
    status: outcome.status,
    code: outcome.code,
    awsMessage: outcome.message,
  };
  const said = outcome.code
    ? DNS_READ.said(outcome.code, outcome.message)
    : STS_REFUSAL.noErrorDocument(outcome.status);
  if (outcome.code === 'AccessDenied' || outcome.code === 'AccessDeniedException') {
    return {
      status: 'fail',
      message: DNS_READ.lacksPermissions(ctx.roleName, outcome.action, said),
      advice: DNS_READ.grantActions(DNS_ACTIONS.join(', '), ctx.policyHint),
      facts,
    };
  }
  if (outcome.code === 'NoSuchHostedZone') {
    return {
      status: 'fail',
      message: DNS_READ.noSuchZone(ctx.hostedZoneId, said),
      advice: DNS_READ.setZoneId,
      facts,
    };
  }
  if (outcome.code === 'InvalidInput') {
    return {
      status: 'fail',
      message: DNS_READ.invalidZoneId(ctx.hostedZoneId, said),
      advice: DNS_READ.zoneIdForm,
      facts,
    };
  }
  if (
    outcome.code === 'SignatureDoesNotMatch' ||
    outcome.code === 'InvalidClientTokenId' ||
    outcome.code === 'ExpiredToken'
  ) {
    return {
      status: 'fail',
      message: DNS_READ.credentialsRefused(said),
      advice: DNS_READ.otherPartition,
      facts,
    };
  }
  return { status: 'fail', message: DNS_READ.refused(outcome.action, said), advice: DNS_READ.retryLater, facts };
}

export function networkFailure(error: unknown, what: string): CheckResult<StsFacts> {
  if (error instanceof HttpError)
    return {
      status: 'fail',
      message: ROLE.unreachable(what, error.message),
      advice: error.advice,
      facts: { url: error.url, kind: error.kind },
    };
  throw error;
}
