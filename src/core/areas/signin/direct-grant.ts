/**
 * The broker token as the OpenStack client's OpenID Connect auth types get it (keystoneauth's oidc
 * plugins): one request at the broker's token endpoint, client credentials or a user's password, the
 * client authenticated with HTTP Basic when it has a secret; or the token given as it is
 * (`v3oidcaccesstoken`). The endpoint is the one given, else the one the broker's OpenID configuration
 * names (`discovery_endpoint`), else the Keycloak path under broker_url and realm.
 */
import type { HttpResponse } from '../../net/http.js';
import { registerSecret } from '../../secrets.js';
import { asRecord, textOf } from '../../records.js';
import { brokerAdvice, serverError, StepError } from './advice.js';
import { describeFacts, formatLeft, tokenFacts } from './token-facts.js';
import { GRANT_WORDS, type SigninSettings } from './settings.js';
import { compact, expiresFromNow, took, type StepEnv, type StepResult } from './step.js';
import { DIRECT_GRANT, TOKENS } from './messages/steps.js';

/** The Keycloak token endpoint under broker_url and realm. */
export function keycloakTokenUrl(s: Pick<SigninSettings, 'brokerUrl' | 'realm'>): string {
  return `${s.brokerUrl}/realms/${encodeURIComponent(s.realm ?? '')}/protocol/openid-connect/token`;
}

/** The grant_type each direct grant sends. */
const GRANT_TYPE = { client_credentials: 'client_credentials', password: 'password' } as const;

/** The token endpoint: given, or read from the broker's OpenID configuration (checking it offers the grant), or Keycloak's path. */
export async function tokenEndpointOf(env: StepEnv, grantType?: string): Promise<{ url: string; from: string }> {
  const s = env.settings;
  if (s.tokenEndpoint) return { url: s.tokenEndpoint, from: 'token_endpoint' };
  if (!s.discoveryEndpoint) return { url: keycloakTokenUrl(s), from: 'broker_url and realm' };
  const res = await env.http.request({ url: s.discoveryEndpoint, signal: env.signal });
  if (res.status !== 200) {
    const e = serverError(res);
    throw new StepError(
      DIRECT_GRANT.configurationAnswered(s.discoveryEndpoint, e.status, e.description),
      DIRECT_GRANT.checkDiscoveryEndpoint,
      { url: s.discoveryEndpoint, status: res.status },
    );
  }
  const doc = asRecord(res.json<unknown>()) ?? {};
  const url = textOf(doc.token_endpoint);
  if (!url) {
    throw new StepError(DIRECT_GRANT.noTokenEndpoint(s.discoveryEndpoint), DIRECT_GRANT.giveTokenEndpoint, {
      url: s.discoveryEndpoint,
    });
  }
  const offered = Array.isArray(doc.grant_types_supported)
    ? doc.grant_types_supported.filter((g): g is string => typeof g === 'string')
    : undefined;
  if (grantType && offered && !offered.includes(grantType)) {
    // keystoneauth refuses the same way: "OpenID Connect grant type not supported by provider."
    throw new StepError(
      DIRECT_GRANT.grantNotOffered(grantType, offered),
      DIRECT_GRANT.enableGrant(grantType, s.clientId ?? ''),
      { url: s.discoveryEndpoint, grant_types_supported: offered },
    );
  }
  return { url, from: 'discovery_endpoint' };
}

/** Client credentials or password at the broker's token endpoint: the broker token. */
export async function directGrant(env: StepEnv, grant: 'client_credentials' | 'password'): Promise<StepResult<string>> {
  const s = env.settings;
  const { url, from } = await tokenEndpointOf(env, GRANT_TYPE[grant]);
  const fields = new URLSearchParams({ grant_type: GRANT_TYPE[grant], scope: s.openidScope });
  if (grant === 'password') {
    fields.set('username', s.username ?? '');
    fields.set('password', s.password ?? '');
  }
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  // keystoneauth authenticates the client with HTTP Basic when it has a secret, and names it in the form otherwise.
  if (s.clientSecret) {
    const basic = Buffer.from(`${s.clientId ?? ''}:${s.clientSecret}`).toString('base64');
    registerSecret(basic);
    headers.authorization = `Basic ${basic}`;
  } else fields.set('client_id', s.clientId ?? '');
  const res = await env.http.request({
    method: 'POST',
    url,
    headers,
    body: fields.toString(),
    credentials: true,
    signal: env.signal,
  });
  if (res.status < 200 || res.status > 299) {
    const error = serverError(res);
    const { message, advice } = brokerAdvice(error, s, 'broker', { url, grant });
    throw new StepError(message, advice, compact({ url, status: res.status, error: error.code, endpoint_from: from }));
  }
  const token = bearerOf(res, s.accessTokenType);
  const facts = tokenFacts(token.value, env.clock.now().getTime());
  const lifetime = token.expiresIn !== undefined ? TOKENS.lifetime(token.expiresIn) : '';
  return {
    value: token.value,
    message: TOKENS.brokerIssuedFor(GRANT_WORDS[grant], took(res), facts ? describeFacts(facts) : undefined, lifetime),
    facts: compact({
      url,
      status: res.status,
      grant: GRANT_TYPE[grant],
      endpoint_from: from,
      token_type: s.accessTokenType,
      claims: facts,
      expires_in: token.expiresIn,
    }),
    expiresAt: expiresFromNow(token.expiresIn, env.clock),
  };
}

/** The member of the answer keystoneauth presents (access_token_type), every token in it registered as a secret. */
function bearerOf(res: HttpResponse, member: string): { value: string; expiresIn?: number } {
  const body = res.json<Record<string, unknown>>();
  for (const key of ['access_token', 'refresh_token', 'id_token']) registerSecret(body[key]);
  const value = body[member];
  if (typeof value !== 'string' || !value) {
    const has = ['access_token', 'id_token'].filter((k) => typeof body[k] === 'string');
    throw new StepError(
      DIRECT_GRANT.noMember(res.status, member, has),
      member === 'id_token' ? DIRECT_GRANT.askOpenidScope : DIRECT_GRANT.checkBrokerTokenEndpoint,
    );
  }
  const n = typeof body.expires_in === 'string' ? Number(body.expires_in) : body.expires_in;
  return { value, ...(typeof n === 'number' && Number.isFinite(n) ? { expiresIn: n } : {}) };
}

/** `v3oidcaccesstoken`: the token given is the broker token; what it claims, and whether it is still valid. */
export function givenToken(env: Pick<StepEnv, 'settings' | 'clock'>): StepResult<string> {
  const token = env.settings.accessToken!;
  const facts = tokenFacts(token, env.clock.now().getTime());
  if (facts?.secondsLeft !== undefined && facts.secondsLeft < 0) {
    throw new StepError(
      DIRECT_GRANT.givenExpired(formatLeft(facts.secondsLeft), facts.expiresAt),
      DIRECT_GRANT.getNewToken,
      compact({ claims: facts }),
    );
  }
  return {
    value: token,
    message: TOKENS.given(facts ? describeFacts(facts) : undefined),
    facts: compact({ claims: facts }),
    ...(facts?.expiresAt ? { expiresAt: facts.expiresAt } : {}),
  };
}
