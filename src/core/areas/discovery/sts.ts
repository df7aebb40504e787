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
    return { status: 'fail', message: 'route53 auth kubernetes is selected but cluster_issuer_acme_route53_role_arn is not set: there is no role to assume.', advice: 'Set cluster_issuer_acme_route53_role_arn to the ARN of the role whose trust policy admits the service account.' };
  }
  const role = parseRoleArn(s.roleArn);
  if (!role) {
    return { status: 'fail', message: `cluster_issuer_acme_route53_role_arn "${s.roleArn}" is not a role ARN.`, advice: 'Use the form arn:aws:iam::123456789012:role/NAME.' };
  }
  const source = await stsToken(s, input, ctx);
  if ('status' in source) return source;
  const claims = readClaims(source.token);
  if (!claims) {
    return { status: 'fail', message: `The token from ${source.from} is not a JWT.`, advice: 'Give a projected service-account token (kubectl create token ...).' };
  }
  const region = typeof inventory.cluster_issuer_acme_route53_region === 'string' ? inventory.cluster_issuer_acme_route53_region.trim() || undefined : undefined;
  const http = httpOf(ctx.services);
  const endpoint = stsEndpoint(input.env, role.partition, region);
  const facts: StsFacts = { source: source.from, roleArn: s.roleArn, iss: claims.iss, sub: claims.sub, aud: claims.aud, stsEndpoint: endpoint };

  let answer: { status: number; body: string };
  try {
    answer = await assumeRole(http, endpoint, s.roleArn, source.token, ctx.signal);
  } catch (error) {
    return networkFailure(error, 'The token service could not be asked');
  }
  if (answer.status !== 200) return stsRefusal(answer, claims, s, role, facts);
  const credentials = credentialsOf(answer.body);
  if (!credentials) {
    return { status: 'fail', message: `${endpoint} answered 200 without temporary credentials.`, advice: 'Check that CLOUDGATE_STS_ENDPOINT (if set) points at the token service itself.', facts };
  }
  const subject = xmlText(answer.body, 'SubjectFromWebIdentityToken') ?? claims.sub;
  const hostedZoneId = stringValue(inventory.cluster_issuer_acme_route53_hosted_zone_id);
  const domain = stringValue(inventory.openstack_helm_ingress_wildcard_domain);
  const dns = dnsEndpoint(input.env, role.partition);
  let read;
  try {
    read = await readDns({ http, endpoint: dns, credentials, hostedZoneId, domain, signal: ctx.signal });
  } catch (error) {
    return networkFailure(error, `The role ${role.roleName} was assumed, but the DNS API could not be asked`);
  }
  const done: StsFacts = { ...facts, subject, dnsEndpoint: dns.url, dnsAction: read.action };
  if (!read.ok) {
    const refusal = dnsRefusal(read, { roleName: role.roleName, hostedZoneId, policyHint: POLICY_HINT(role.roleName) });
    return { ...refusal, facts: { ...done, code: read.code, awsMessage: read.message, status: read.status } };
  }
  return {
    status: 'ok',
    message: `Assumed ${role.roleName} as ${subject ?? 'the service account'} with the token from ${source.from.split(' (')[0]}, and ${read.action} answered (${read.found}).`,
    facts: done,
  };
}

const POLICY_HINT = (roleName: string) =>
  `aws iam put-role-policy --role-name ${roleName} --policy-name cert-manager-dns01 --policy-document file://oidc/permissions-policy.json ("cloudgate oidc --out oidc" writes it).`;

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
  const said = error ? `${error.code} ("${error.message}")` : `status ${answer.status} without an error document`;
  const iss = claims.iss ?? '(none)';
  const provider = `arn:${role.partition}:iam::${role.account}:oidc-provider/${issuerHostPath(iss)}`;
  const expectedSub = `system:serviceaccount:${s.namespace}:${s.serviceAccount}`;
  const message = error?.message ?? '';
  if (!error) {
    return { status: 'fail', message: `The token service answered ${said}.`, advice: 'Check CLOUDGATE_STS_ENDPOINT (if set) and any proxy in between.', facts };
  }
  if (error.code === 'InvalidIdentityToken' && /no openid ?connect provider/i.test(message)) {
    return {
      status: 'fail',
      message: `The token service refused the token: ${said}. No OIDC provider is registered in account ${role.account} for the token's issuer ${iss}.`,
      advice:
        `Register the issuer exactly as the token carries it (URL ${iss}, client id ${s.stsAudience}, the thumbprint of its TLS chain): ` +
        `aws iam create-open-id-connect-provider --cli-input-json file://oidc/oidc-provider.json ("cloudgate oidc" writes it). ` +
        `If ${iss} is not your public issuer URL, fix --service-account-issuer on the API servers first (discovery.apiserver-flags).`,
      facts,
    };
  }
  if (error.code === 'InvalidIdentityToken' && /audience/i.test(message)) {
    return {
      status: 'fail',
      message: `The token service refused the token: ${said}. Its aud [${claims.aud.join(', ')}] is not among the client ids of the provider for ${iss}.`,
      advice: `Add ${s.stsAudience} to the provider's client ids: aws iam add-client-id-to-open-id-connect-provider --open-id-connect-provider-arn ${provider} --client-id ${s.stsAudience}; cert-manager requests tokens for that audience.`,
      facts,
    };
  }
  if (error.code === 'AccessDenied') {
    return {
      status: 'fail',
      message: `The token service refused to let the token assume ${role.roleName}: ${said}. The role's trust policy does not admit sub "${claims.sub ?? '(none)'}" with aud [${claims.aud.join(', ')}] from ${provider}.`,
      advice:
        `Compare the trust policy of ${role.roleName} (aws iam get-role --role-name ${role.roleName}) with the token: Principal.Federated ${provider}, ` +
        `Action sts:AssumeRoleWithWebIdentity, Condition StringEquals "${issuerHostPath(iss)}:sub": "${expectedSub}" and "${issuerHostPath(iss)}:aud": "${s.stsAudience}" ` +
        `("cloudgate oidc --role-name ${role.roleName}" writes trust-policy.json).`,
      facts,
    };
  }
  if (error.code === 'ExpiredTokenException' || error.code === 'ExpiredToken') {
    return {
      status: 'fail',
      message: `The token service says the token has expired: ${said}.`,
      advice: 'Give a fresh token (without --token-file a new one is requested each run); if a fresh token is refused too, the control plane\'s clock is wrong: check its time synchronisation.',
      facts,
    };
  }
  if (error.code === 'IDPCommunicationError') {
    return {
      status: 'fail',
      message: `The token service could not fetch the discovery document or key set of ${iss}: ${said}.`,
      advice: `${iss}/.well-known/openid-configuration and its jwks_uri must be served anonymously over HTTPS from the internet (see discovery.document and discovery.jwks); a firewall, an IP allow-list or a private certificate without its thumbprint registered stops the token service. Transient outages clear on retry.`,
      facts,
    };
  }
  if (error.code === 'InvalidIdentityToken' || error.code === 'IDPRejectedClaim') {
    return {
      status: 'fail',
      message: `The token service refused the token: ${said}.`,
      advice: 'Check the provider registration (thumbprint, client ids) and that the published key set holds the key the cluster signs with (discovery.token).',
      facts,
    };
  }
  return { status: 'fail', message: `The token service refused the request: ${said}.`, advice: 'Check the role ARN (cluster_issuer_acme_route53_role_arn) and the region.', facts };
}
