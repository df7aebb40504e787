/** The OAuth side of the chain: the identity provider's client credentials grant and the broker's token exchange. */
import type { HttpResponse } from '../../net/http.js';
import { registerSecret } from '../../secrets.js';
import { brokerAdvice, serverError, StepError } from './advice.js';
import { describeFacts, formatLeft, tokenFacts, type TokenFacts } from './token-facts.js';
import type { SigninSettings } from './settings.js';
import { compact, expiresFromNow, took, type StepEnv, type StepResult } from './step.js';
import { keycloakTokenUrl } from './direct-grant.js';
import { subjectAudience } from './claims.js';
import { TOKENS } from './messages/steps.js';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

function form(fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) params.set(k, v);
  return params.toString();
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function factsLine(facts: TokenFacts | undefined): string {
  return facts ? describeFacts(facts) : 'not a JWT, no claims to show';
}

function parseExpiresIn(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** The broker/IdP answered 2xx with JSON carrying `access_token`. */
function oauthToken(res: HttpResponse, what: string): { accessToken: string; expiresIn?: number; refresh?: boolean } {
  const body = res.json<Record<string, unknown>>();
  const accessToken = body.access_token;
  registerSecret(accessToken);
  registerSecret(body.refresh_token);
  registerSecret(body.id_token);
  if (typeof accessToken !== 'string' || !accessToken) {
    throw new StepError(TOKENS.noAccessToken(what, res.status), TOKENS.checkTokenEndpoint);
  }
  return { accessToken, expiresIn: parseExpiresIn(body.expires_in), refresh: typeof body.refresh_token === 'string' };
}

/** Client credentials grant at the identity provider: the subject token for the exchange. */
export async function idpToken(env: StepEnv): Promise<StepResult<string>> {
  const s = env.settings;
  const res = await env.http.request({
    method: 'POST',
    url: s.idpTokenUrl!,
    headers: FORM,
    body: form({
      grant_type: 'client_credentials',
      client_id: s.idpClientId,
      client_secret: s.idpClientSecret,
      scope: s.idpScope,
    }),
    credentials: true,
    signal: env.signal,
  });
  if (res.status < 200 || res.status > 299) {
    const { message, advice } = brokerAdvice(serverError(res), s, 'idp', { url: s.idpTokenUrl });
    throw new StepError(message, advice, { url: s.idpTokenUrl, status: res.status });
  }
  const token = oauthToken(res, TOKENS.theIdentityProvider);
  const facts = tokenFacts(token.accessToken, env.clock.now().getTime());
  return {
    value: token.accessToken,
    message: TOKENS.idpIssued(took(res), factsLine(facts), token.expiresIn),
    facts: compact({ url: s.idpTokenUrl, status: res.status, claims: facts, expires_in: token.expiresIn }),
    expiresAt: expiresFromNow(token.expiresIn, env.clock),
  };
}

/** The exchange's URL: the token endpoint given, else Keycloak's under broker_url and realm. */
export function exchangeUrl(s: SigninSettings): string {
  return s.tokenEndpoint ?? keycloakTokenUrl(s);
}

/** The broker's token exchange: the identity provider's token for a broker token. */
export async function exchange(env: StepEnv, subjectToken: string): Promise<StepResult<string>> {
  const s = env.settings;
  const url = exchangeUrl(s);
  const res = await env.http.request({
    method: 'POST',
    url,
    headers: FORM,
    body: form({
      grant_type: TOKEN_EXCHANGE,
      client_id: s.clientId,
      client_secret: s.clientSecret,
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN_TYPE,
      subject_issuer: s.subjectIssuer,
    }),
    credentials: true,
    signal: env.signal,
  });
  if (res.status < 200 || res.status > 299) {
    const error = serverError(res);
    const { message, advice } = brokerAdvice(error, s, 'broker', { url, grant: 'exchange' });
    const subject = tokenFacts(subjectToken, env.clock.now().getTime());
    const expired =
      subject?.secondsLeft !== undefined && subject.secondsLeft < 0
        ? TOKENS.subjectExpired(formatLeft(subject.secondsLeft), subject.expiresAt)
        : '';
    // The broker said the audience is the reason: the subject token's aud and azp show why.
    const audience = /not within the token audience/i.test(error.description)
      ? subjectAudience(subjectToken, s)
      : undefined;
    throw new StepError(
      message + expired + (audience ? ` ${audience.message}` : ''),
      audience ? audience.advice : advice,
      compact({
        url,
        status: res.status,
        error: error.code,
        subject_token_claims: subject,
        ...(audience ? { subject_audience: { client: audience.client, aud: audience.aud, azp: audience.azp } } : {}),
      }),
    );
  }
  const token = oauthToken(res, TOKENS.theBroker);
  const facts = tokenFacts(token.accessToken, env.clock.now().getTime());
  const lifetime = token.expiresIn !== undefined ? TOKENS.lifetime(token.expiresIn) : '';
  return {
    value: token.accessToken,
    message: TOKENS.brokerIssued(took(res), factsLine(facts), lifetime),
    facts: compact({
      url,
      status: res.status,
      claims: facts,
      expires_in: token.expiresIn,
      refresh_token: token.refresh ? 'received' : 'none',
      subject_issuer: s.subjectIssuer,
    }),
    expiresAt: expiresFromNow(token.expiresIn, env.clock),
  };
}
