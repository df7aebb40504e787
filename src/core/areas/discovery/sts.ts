/**
 * `discovery.sts`: keyless DNS credentials end to end, as cert-manager will do it. A
 * projected token for the service account, exchanged at the token service for the role
 * (`AssumeRoleWithWebIdentity`, unsigned: the token is the credential), then one read-only DNS call
 * with the temporary credentials. Each refusal is mapped to what is misconfigured and where.
 */
import { randomBytes } from 'node:crypto';
import type { DoctorInput } from '../../doctor/input.js';
import type { Check, CheckContext, CheckResult } from '../../doctor/types.js';
import { firstClosed } from '../../doctor/gates.js';
import { httpOf, type HttpClient } from '../../net/http.js';
import { inventoryValues } from '../../inventory/inventory.js';
import { registerSecret } from '../../secrets.js';
import { awsError, xmlText, type AwsError } from './aws-xml.js';
import { issuerHostPath } from '../../kube/service-account-issuer.js';
import { dnsEndpoint, dnsRefusal, networkFailure, readDns, type TemporaryCredentials } from './route53-read.js';
import { readClaims, stsToken, tokenGate, type TokenClaims } from './sa-token.js';
import { keylessGate, parseRoleArn, type DiscoverySettings } from '../../config/discovery-settings.js';
import type { StsFacts } from './facts.js';
import { TITLES } from './messages.js';
import { ROLE, STS_REFUSAL } from './messages/keyless.js';

export const STS_CHECK = 'discovery.sts';

/** The token service's endpoint: CLOUDGATE_STS_ENDPOINT, else the regional one (as the SDKs use), else the global one. */
export function stsEndpoint(env: NodeJS.ProcessEnv, partition: string, region: string | undefined): string {
  if (env.CLOUDGATE_STS_ENDPOINT) return env.CLOUDGATE_STS_ENDPOINT.replace(/\/+$/, '');
  const suffix = partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com';
  return region ? `https://sts.${region}.${suffix}` : `https://sts.${suffix}`;
}

export function stsCheck(input: DoctorInput, s: DiscoverySettings): Check {
  return {
    id: STS_CHECK,
    group: 'discovery',
    title: TITLES.sts,
    // The role and the zone are the inventory's: an issuer URL alone gives nothing to assume.
    gate: firstClosed(keylessGate(s, 'inventory'), tokenGate(s, input)),
    run: (ctx) => runSts(input, s, ctx),
  };
}

async function runSts(input: DoctorInput, s: DiscoverySettings, ctx: CheckContext): Promise<CheckResult<StsFacts>> {
  const inventory = await inventoryValues(input);
  if (!s.roleArn) {
    return { status: 'fail', message: ROLE.unset, advice: ROLE.setRoleArn };
  }
  const role = parseRoleArn(s.roleArn);
  if (!role) {
    return { status: 'fail', message: ROLE.notArn(s.roleArn), advice: ROLE.arnForm };
  }
  const source = await stsToken(s, input, ctx);
  if ('status' in source) return source;
  const claims = readClaims(source.token);
  if (!claims) {
    return { status: 'fail', message: ROLE.notJwt(source.from), advice: ROLE.giveProjectedToken };
  }
  const region =
    typeof inventory.cluster_issuer_acme_route53_region === 'string'
      ? inventory.cluster_issuer_acme_route53_region.trim() || undefined
      : undefined;
  const http = httpOf(ctx.services);
  const endpoint = stsEndpoint(input.env, role.partition, region);
  const facts: StsFacts = {
    source: source.from,
    roleArn: s.roleArn,
    iss: claims.iss,
    sub: claims.sub,
    aud: claims.aud,
    stsEndpoint: endpoint,
  };

  let answer: { status: number; body: string };
  try {
    answer = await assumeRole(http, endpoint, s.roleArn, source.token, ctx.signal);
  } catch (error) {
    return networkFailure(error, ROLE.tokenServiceUnreachable);
  }
  if (answer.status !== 200) return stsRefusal(answer, claims, s, role, facts);
  const credentials = credentialsOf(answer.body);
  if (!credentials) {
    return { status: 'fail', message: ROLE.noCredentials(endpoint), advice: ROLE.checkStsEndpoint, facts };
  }
  const subject = xmlText(answer.body, 'SubjectFromWebIdentityToken') ?? claims.sub;
  const hostedZoneId = stringValue(inventory.cluster_issuer_acme_route53_hosted_zone_id);
  const domain = stringValue(inventory.openstack_helm_ingress_wildcard_domain);
  const dns = dnsEndpoint(input.env, role.partition);
  let read;
  try {
    read = await readDns({ http, endpoint: dns, credentials, hostedZoneId, domain, signal: ctx.signal });
  } catch (error) {
    return networkFailure(error, ROLE.dnsApiUnreachable(role.roleName));
  }
  const done: StsFacts = { ...facts, subject, dnsEndpoint: dns.url, dnsAction: read.action };
  if (!read.ok) {
    const refusal = dnsRefusal(read, { roleName: role.roleName, hostedZoneId, policyHint: POLICY_HINT(role.roleName) });
    return { ...refusal, facts: { ...done, code: read.code, awsMessage: read.message, status: read.status } };
  }
  return {
    status: 'ok',
    message: ROLE.assumed(
      role.roleName,
      subject ?? ROLE.theServiceAccount,
      source.from.split(' (')[0],
      read.action,
      read.found,
    ),
    facts: done,
  };
}

const POLICY_HINT = ROLE.putRolePolicy;

function stringValue(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

async function assumeRole(http: HttpClient, endpoint: string, roleArn: string, token: string, signal: AbortSignal) {
  const body = new URLSearchParams({
    Action: 'AssumeRoleWithWebIdentity',
    Version: '2011-06-15',
    RoleArn: roleArn,
    RoleSessionName: `cloudgate-${randomBytes(6).toString('hex')}`,
    // The shortest session the service allows: the credentials are used once.
    DurationSeconds: '900',
    WebIdentityToken: token,
  }).toString();
  const res = await http.request({
    method: 'POST',
    url: `${endpoint}/`,
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', accept: 'application/xml' },
    body,
    credentials: true,
    signal,
  });
  return { status: res.status, body: res.body };
}

function credentialsOf(xml: string): TemporaryCredentials | undefined {
  const block = xmlText(xml, 'Credentials');
  if (!block) return undefined;
  const accessKeyId = xmlText(block, 'AccessKeyId');
  const secretAccessKey = xmlText(block, 'SecretAccessKey');
  const sessionToken = xmlText(block, 'SessionToken');
  if (!accessKeyId || !secretAccessKey || !sessionToken) return undefined;
  for (const secret of [accessKeyId, secretAccessKey, sessionToken]) registerSecret(secret);
  return { accessKeyId, secretAccessKey, sessionToken };
}

function stsRefusal(
  answer: { status: number; body: string },
  claims: TokenClaims,
  s: DiscoverySettings,
  role: { partition: string; account: string; roleName: string },
  asked: StsFacts,
): CheckResult<StsFacts> {
  const error: AwsError | undefined = awsError(answer.body);
  const facts: StsFacts = { ...asked, status: answer.status, code: error?.code, awsMessage: error?.message };
  const said = error ? STS_REFUSAL.said(error.code, error.message) : STS_REFUSAL.noErrorDocument(answer.status);
  const iss = claims.iss ?? '(none)';
  const provider = `arn:${role.partition}:iam::${role.account}:oidc-provider/${issuerHostPath(iss)}`;
  const expectedSub = `system:serviceaccount:${s.namespace}:${s.serviceAccount}`;
  const message = error?.message ?? '';
  if (!error) {
    return { status: 'fail', message: STS_REFUSAL.answered(said), advice: STS_REFUSAL.checkEndpointAndProxy, facts };
  }
  if (error.code === 'InvalidIdentityToken' && /no openid ?connect provider/i.test(message)) {
    return {
      status: 'fail',
      message: STS_REFUSAL.noProvider(said, role.account, iss),
      advice: STS_REFUSAL.registerIssuer(iss, s.stsAudience),
      facts,
    };
  }
  if (error.code === 'InvalidIdentityToken' && /audience/i.test(message)) {
    return {
      status: 'fail',
      message: STS_REFUSAL.wrongAudience(said, claims.aud, iss),
      advice: STS_REFUSAL.addClientId(s.stsAudience, provider),
      facts,
    };
  }
  if (error.code === 'AccessDenied') {
    return {
      status: 'fail',
      message: STS_REFUSAL.notAdmitted(role.roleName, said, claims.sub ?? '(none)', claims.aud, provider),
      advice: STS_REFUSAL.compareTrustPolicy(role.roleName, provider, issuerHostPath(iss), expectedSub, s.stsAudience),
      facts,
    };
  }
  if (error.code === 'ExpiredTokenException' || error.code === 'ExpiredToken') {
    return {
      status: 'fail',
      message: STS_REFUSAL.expired(said),
      advice: STS_REFUSAL.giveFreshToken,
      facts,
    };
  }
  if (error.code === 'IDPCommunicationError') {
    return {
      status: 'fail',
      message: STS_REFUSAL.cannotFetchIssuer(iss, said),
      advice: STS_REFUSAL.publishToInternet(iss),
      facts,
    };
  }
  if (error.code === 'InvalidIdentityToken' || error.code === 'IDPRejectedClaim') {
    return {
      status: 'fail',
      message: STS_REFUSAL.refusedToken(said),
      advice: STS_REFUSAL.checkRegistration,
      facts,
    };
  }
  return { status: 'fail', message: STS_REFUSAL.refusedRequest(said), advice: STS_REFUSAL.checkRoleAndRegion, facts };
}
