/**
 * Turns the known answers of a Keycloak-like broker and a Keystone-like identity service
 * into a plain explanation and the fix.
 */
import type { SigninFacts } from './facts.js';
import type { HttpResponse } from '../../net/http.js';
import { preview } from '../../net/http-log.js';
import { redact } from '../../secrets.js';
import type { TokenFacts } from './token-facts.js';
import type { SigninSettings } from './settings.js';
import { asRecord, memberOf, textOf } from '../../records.js';
import { brokerOf } from '../../config/clouds-yaml.js';

export class StepError extends Error {
  constructor(
    message: string,
    readonly advice: string,
    readonly facts: SigninFacts = {},
  ) {
    super(message);
    this.name = 'StepError';
  }
}

export interface ServerError {
  status: number;
  /** OAuth `error` code (broker) or Keystone `title`. */
  code?: string;
  /** `error_description` (broker) or Keystone `error.message`, else a preview of the body. */
  description: string;
  /** Keystone's own JSON error (as opposed to a page of the web server or module in front of it). */
  keystone: boolean;
  /** A `WWW-Authenticate: Bearer` challenge: a resource server such as mod_auth_openidc refused the token. */
  challenged: boolean;
  /** The sign-in methods Keystone accepts (`[auth] methods`), sent along with an unsupported-method 401. */
  methods?: string[];
}

/** Server text without its closing full stop, so a message can add its own. */
export function unstop(text: string): string {
  return text.replace(/[\s.]+$/, '');
}

export function serverError(res: HttpResponse): ServerError {
  let code: string | undefined;
  let description = '';
  let keystone = false;
  let methods: string[] | undefined;
  try {
    const parsed: unknown = JSON.parse(res.body);
    if (parsed === null) throw new SyntaxError('null'); // described as text below, like a body that is no JSON
    const body = asRecord(parsed) ?? {};
    if (typeof body.error === 'string') {
      code = body.error;
      description = typeof body.error_description === 'string' ? body.error_description : '';
    } else if (body.error && typeof body.error === 'object') {
      const e = body.error;
      keystone = true;
      code = textOf(memberOf(e, 'title'));
      description = textOf(memberOf(e, 'message')) ?? '';
      const accepted = memberOf(memberOf(e, 'identity'), 'methods');
      if (Array.isArray(accepted)) methods = accepted.filter((m): m is string => typeof m === 'string');
    }
  } catch {
    description = htmlWords(res.body) ?? preview(res.body).slice(0, 200);
  }
  // mod_auth_openidc (and other resource servers) say why in WWW-Authenticate, not in their HTML page.
  const challenge = res.headers['www-authenticate'];
  const why = challenge ? /error_description="([^"]*)"/.exec(challenge)?.[1] : undefined;
  if (why) description = description ? `${unstop(description)}: ${why}` : why;
  else if (!description && challenge) description = challenge;
  const challenged = /^\s*Bearer\b/i.test(challenge ?? '');
  return { status: res.status, code, description: redact(description), keystone, challenged, ...(methods ? { methods } : {}) };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * An HTML error page in its own words: its title, then what its body says beyond the title (Apache's
 * "Reason: You're speaking plain HTTP to an SSL-enabled server port."), without the server's signature
 * under its rule. Undefined for a body that is no HTML page.
 */
export function htmlWords(body: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
  if (title === undefined) return undefined;
  const inner = (/<body[^>]*>([\s\S]*?)(?:<\/body>|$)/i.exec(body)?.[1] ?? body.replace(/<title[^>]*>[^<]*<\/title>/i, ''))
    .split(/<hr\b/i)[0]
    .replace(/<h1[^>]*>[\s\S]*?<\/h1>/gi, ' ')
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ');
  const text = inner.replace(/<[^>]*>/g, ' ').replace(/&(#?\w+);/g, (whole, name: string) => ENTITIES[name] ?? whole).replace(/\s+/g, ' ').trim();
  const said = text && !title.includes(text) ? `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}` : '';
  return `an HTML page "${title}"${said}`;
}

/** A web server that says the request came in plain HTTP to its TLS port (Apache's and nginx's own words). */
export function plainHttpToTls(e: ServerError): boolean {
  return /plain HTTP to an SSL-enabled server port|plain HTTP request was sent to HTTPS port|use the HTTPS scheme/i.test(e.description);
}

export function describe(e: ServerError): string {
  const parts = [String(e.status), e.code, unstop(e.description)].filter(Boolean);
  return parts.join(' ');
}

const has = (e: ServerError, pattern: RegExp) => pattern.test(`${e.code ?? ''} ${e.description}`);

/** Which request of the broker's the answer is to, for advice that names what to change. */
export interface BrokerRequest {
  /** The URL asked. */
  url?: string;
  /** The grant asked for: the exchange, or one of the direct grants of the OpenStack client's auth types. */
  grant?: 'exchange' | 'client_credentials' | 'password';
}

/**
 * The broker's token endpoint (the exchange, or a direct grant) and the identity provider's client
 * credentials grant: keyed on the answer's own words (Keycloak's texts) where they say why, else on its
 * OAuth error code. Only what the answer proves is offered as the cause.
 */
export function brokerAdvice(e: ServerError, s: SigninSettings, party: 'broker' | 'idp' = 'broker', request: BrokerRequest = {}): { message: string; advice: string } {
  const where = party === 'broker' ? `The broker${s.realm ? ` (realm ${s.realm})` : ''}` : 'The identity provider';
  const client = party === 'broker' ? s.clientId ?? '' : s.idpClientId ?? '';
  const clientKey = party === 'broker' ? 'client_id' : 'idp_client_id';
  const secretKey = party === 'broker' ? 'client_secret (CLOUDGATE_CLIENT_SECRET, OS_CLIENT_SECRET or signin.client_secret_file)' : 'idp_client_secret (CLOUDGATE_IDP_CLIENT_SECRET or signin.idp_client_secret_file)';
  const url = request.url ?? '';
  const urlKey = party === 'idp' ? 'idp_token_url' : s.tokenEndpoint ? 'token_endpoint' : 'broker_url';
  if (plainHttpToTls(e)) {
    return { message: `${where} answered ${describe(e)}.`, advice: `The URL is http:// but the port speaks HTTPS: write https:// in ${urlKey}.` };
  }
  if (e.code === 'invalid_client' || e.code === 'unauthorized_client') {
    const rejected = `${where} rejected the client: ${describe(e)}.`;
    if (has(e, /Invalid client or Invalid client credentials/i)) {
      return { message: rejected, advice: `Wrong client secret: client "${client}" exists${s.realm && party === 'broker' ? ` in realm ${s.realm}` : ''} and its secret differs. Check ${secretKey} against the client's credentials.` };
    }
    if (e.status === 400 && has(e, /^\s*\S+\s+Invalid client credentials\s*$/i)) {
      return { message: rejected, advice: `No enabled client "${client}"${s.realm && party === 'broker' ? ` in realm ${s.realm}` : ''}: check ${clientKey} (a typo, or a disabled client).` };
    }
    if (has(e, /Missing client_id/i)) return { message: rejected, advice: `Set ${clientKey}.` };
    if (has(e, /not enabled to retrieve service account|Public client not allowed to retrieve service account/i)) {
      return { message: rejected, advice: `Client "${client}" may not use the client credentials grant: turn on its service account (Keycloak: "Client authentication" and "Service accounts roles" on the client).` };
    }
    if (has(e, /not allowed for direct access grants/i)) {
      return { message: rejected, advice: `Client "${client}" may not use the password grant: turn on "Direct access grants" for it in the broker.` };
    }
    return {
      message: rejected,
      advice:
        party === 'broker'
          ? `Wrong client id or client secret. Check client_id "${client}" and ${secretKey} against the client's credentials${s.realm ? ` in realm ${s.realm}` : ''}; the client must be confidential.`
          : `Wrong client id or client secret at the identity provider. Check idp_client_id "${client}" and ${secretKey}.`,
    };
  }
  if (e.code === 'invalid_grant' && has(e, /Invalid user credentials/i)) {
    return { message: `${where} refused the user: ${describe(e)}.`, advice: `Wrong username or password: check username "${s.username ?? ''}" and password (OS_PASSWORD, or auth.password in clouds.yaml or secure.yaml).` };
  }
  if (has(e, /not within the token audience/i)) {
    return { message: `${where} refused the exchange: ${describe(e)}.`, advice: audienceAdvice(s) };
  }
  if (has(e, /Standard token exchange is not enabled/i)) {
    return { message: `${where} does not let this client exchange tokens: ${describe(e)}.`, advice: `Turn on "Standard token exchange" for client "${client}" in the broker (Keycloak 26: the client's Capability config).` };
  }
  if (e.code === 'access_denied' || has(e, /not allowed to exchange/i)) {
    return {
      message: `${where} does not permit this client to exchange tokens: ${describe(e)}.`,
      advice: `Exchange not permitted: allow client "${client}" to exchange tokens (Keycloak: enable token exchange for the client and grant it the token-exchange permission on the identity provider${s.subjectIssuer ? ` "${s.subjectIssuer}"` : ''}).`,
    };
  }
  if (has(e, /subject_issuer/i) && has(e, /not supported/i)) {
    return {
      message: `${where} refuses subject_issuer: ${describe(e)}.`,
      advice: `subject_issuer refused: this broker runs standard token exchange (Keycloak 26 "V2"), which only accepts tokens it issued itself. Remove subject_issuer, or enable legacy token exchange (V1) on the broker to exchange tokens of an external identity provider.`,
    };
  }
  if (e.code === 'invalid_issuer') {
    return {
      message: `${where} does not know subject_issuer "${s.subjectIssuer ?? ''}": ${describe(e)}.`,
      advice: 'Set subject_issuer to the alias of the identity provider as it is registered in the broker realm (Identity providers list), or remove it.',
    };
  }
  if (e.code === 'invalid_token' || (e.code === 'invalid_request' && has(e, /invalid token|token.*(expired|not active|invalid)/i))) {
    return {
      message: `${where} rejected the subject token: ${describe(e)}.`,
      advice: s.subjectIssuer
        ? `Subject token rejected: check that it was issued by the identity provider "${s.subjectIssuer}" of realm ${s.realm ?? '?'} and has not expired.`
        : 'Subject token rejected: for a token of an external identity provider the broker (legacy exchange) needs subject_issuer=<identity provider alias>; set subject_issuer. Also check that the token has not expired.',
    };
  }
  if (e.code === 'unsupported_grant_type') {
    const grant = request.grant === 'exchange' || !request.grant ? 'token exchange' : request.grant === 'password' ? 'the password grant' : 'the client credentials grant';
    return { message: `${where} does not offer ${grant} at ${url || 'its token endpoint'}: ${describe(e)}.`, advice: `Enable ${grant} in the broker${request.grant === 'exchange' ? ' (Keycloak: the token-exchange feature)' : ` for client "${client}"`}, or check that ${urlKey} is the broker's token endpoint.` };
  }
  if (e.code === 'invalid_scope') {
    return { message: `${where} refused the scope: ${describe(e)}.`, advice: party === 'idp' ? `Check idp_scope "${s.idpScope ?? ''}": it must be a scope the client may request.` : `Check openid_scope "${s.openidScope}": every scope must be one the client may request.` };
  }
  if (e.status === 404 && party === 'idp') {
    return { message: `${where} answered ${describe(e)}.`, advice: 'Check idp_token_url: it must be the OAuth token endpoint of the identity provider.' };
  }
  if (e.status === 404) return notFoundAtBroker(e, s, url, urlKey);
  return { message: `${where} answered ${describe(e)}.`, advice: 'Read the answer above and the server logs; run with --verbose to see the request.' };
}

/** A 404 of the broker, by what it said: no such realm, a path Keycloak does not serve (the old /auth prefix), or not Keycloak at all. */
function notFoundAtBroker(e: ServerError, s: SigninSettings, url: string, urlKey: string): { message: string; advice: string } {
  const message = `Not found: ${describe(e)}.`;
  if (has(e, /Realm does not exist/i)) {
    return { message, advice: `The broker has no realm "${s.realm ?? brokerRealmOf(url) ?? ''}": check realm (the realm's name is case-sensitive).` };
  }
  const keycloakSaysNoPath = has(e, /Unable to find matching target resource method|RESTEASY003210/i);
  if (keycloakSaysNoPath && /\/auth\/realms\//.test(url)) {
    return { message, advice: `Keycloak 17 and later serve realms at /realms/..., without the /auth prefix of older versions: remove /auth from ${urlKey} (${url.replace('/auth/realms/', '/realms/')}).` };
  }
  if (keycloakSaysNoPath) {
    return { message, advice: `The broker answers but serves nothing at ${url || 'that path'}: check ${urlKey}${s.tokenEndpoint ? '' : ' and realm'}; the token endpoint is {broker_url}/realms/<realm>/protocol/openid-connect/token.` };
  }
  const legacy = /\/realms\//.test(url) && !/\/auth\/realms\//.test(url) ? ' A Keycloak of version 16 or older (or one started with --http-relative-path=/auth) serves realms under /auth: try broker_url ending in /auth.' : '';
  return {
    message,
    advice: `Check ${urlKey}${s.tokenEndpoint ? '' : ` and realm ("${s.realm ?? ''}")`}: the token endpoint is {broker_url}/realms/<realm>/protocol/openid-connect/token.${legacy}`,
  };
}

const brokerRealmOf = (url: string) => /\/realms\/([^/]+)/.exec(url)?.[1];

/** The standard exchange's audience rule, when the broker said it was broken ("Client is not within the token audience"). */
function audienceAdvice(s: SigninSettings): string {
  const client = s.clientId ?? '';
  return `The subject token's audience must include the exchanging client "${client}" (or the token must have been issued to it): add an Audience mapper with included client audience "${client}" to the client that obtains the subject token.`;
}

/**
 * The identity service (sign-in, projects, scope): Keystone's messages. Without `insecure_debug` Keystone hides the reason of a federated
 * sign-in failure (a bare 403 or 401, the detail only in its log), so at the federated sign-in the status and who
 * answered (Keystone's JSON or the module in front of it) point at the likely cause; `token` holds the
 * decoded claims of the broker token that was sent.
 */
export function identityAdvice(
  e: ServerError,
  s: SigninSettings,
  context: { step?: 'federated' | 'projects' | 'scope'; token?: TokenFacts; working_protocol?: string; v3_url?: string } = {},
): { message: string; advice: string } {
  const d = e.description;
  if (plainHttpToTls(e)) {
    return { message: `The identity service answered ${describe(e)}.`, advice: 'The URL is http:// but the port speaks HTTPS: write https:// in identity_url (OS_AUTH_URL, clouds.yaml auth_url).' };
  }
  if (context.v3_url) {
    return {
      message: `Not found: ${describe(e)}. The identity URL ends in ${/\/v[\d.]+$/.exec(s.identityUrl ?? '')?.[0] ?? 'a version'}, which this Keystone does not serve: its version document names v3 at ${context.v3_url}.`,
      advice: `Set identity_url (OS_AUTH_URL, clouds.yaml auth_url) to ${context.v3_url} (the OpenStack client builds the same wrong path from this URL).`,
    };
  }
  const idp = s.idpId ?? '<idp>';
  const issuer = context.token?.issuer;
  const iss = issuer ? `"${issuer}"` : '(the token has no readable iss claim; see signin.exchange)';
  if (/Could not map any federated user properties/i.test(d)) {
    return {
      message: `The identity service mapped nothing: ${describe(e)}.`,
      advice: `The mapping of identity provider "${s.idpId ?? ''}" (protocol ${s.protocol}) matched none of the broker token's claims: compare its remote rules with the claims shown by signin.exchange (openstack mapping show <mapping>).`,
    };
  }
  if (/unsupported method/i.test(d)) return unsupportedMethod(e, s, context.working_protocol);
  if (/Could not find federated protocol/i.test(d)) {
    return { message: `Protocol not found: ${describe(e)}.`, advice: `Set protocol to the one registered for the identity provider (openstack federation protocol list --identity-provider ${s.idpId ?? '<idp>'}); the usual value is "openid".` };
  }
  if (/Could not find Identity Provider/i.test(d)) {
    return { message: `Identity provider not found: ${describe(e)}.`, advice: 'Set idp_id (or OS_IDENTITY_PROVIDER) to an identity provider id of the identity service (openstack identity provider list).' };
  }
  if (/not included among the accepted identifiers/i.test(d)) {
    return {
      message: `The token's issuer is not accepted: ${describe(e)}.`,
      advice: `Add the broker token's issuer ${iss} to the remote ids of identity provider "${idp}" (openstack identity provider set --remote-id <iss> ${idp}).`,
    };
  }
  const noAccess = /User (.+) has no access to project (.+)/i.exec(d);
  if (noAccess) {
    return { message: `No access to the project: ${describe(e)}.`, advice: `Give the user a role on the project (openstack role add --user ${noAccess[1]} --project ${unstop(noAccess[2])} member), or grant it through the federation mapping.` };
  }
  if (/Could not recognize Fernet token/i.test(d)) {
    return { message: `The identity service does not recognise the token: ${describe(e)}.`, advice: 'The token was not issued by this identity service (or its fernet keys were rotated away); sign in again and check that every identity service node shares the same fernet keys.' };
  }
  if (/Failed to validate token/i.test(d)) {
    return { message: `The token is no longer valid: ${describe(e)}.`, advice: 'The token expired or was revoked; run the chain again.' };
  }
  if (context.step === 'federated' && e.status === 403 && e.keystone) {
    return {
      message: `The identity service refused the federated sign-in: ${describe(e)}.`,
      advice:
        `Keystone hides the reason (its log names it). Likely causes, most common first: ` +
        `(1) the broker token's issuer ${iss} is not among the remote ids of identity provider "${idp}" — the match is exact, a trailing slash counts; ` +
        `(2) identity provider "${idp}" is disabled; ` +
        `(3) less often, the mapping of protocol ${s.protocol} or the groups and roles it grants. ` +
        `Confirm with: openstack identity provider show ${idp} (remote_ids must list ${iss}, enabled must be True). ` +
        `Fix: openstack identity provider set --remote-id ${issuer ?? '<iss>'} ${idp} (repeat --remote-id for every id to keep), or openstack identity provider set --enable ${idp}; ` +
        `else check the mapping (openstack mapping show <mapping>).`,
    };
  }
  if (context.step === 'federated' && e.status === 401 && (e.challenged || !e.keystone)) return frontModuleRefused(e, s, context.token);
  if (context.step === 'federated' && e.status === 401) {
    return {
      message: `The identity service accepted the broker token but signed no one in: ${describe(e)}.`,
      advice:
        `The module in front of Keystone accepted the token (this 401 is Keystone's own JSON), so Keystone refused it after mapping: most often the mapping of identity provider "${idp}" (protocol ${s.protocol}) ` +
        `matched none of the token's claims, or its rules give the user no group. Compare the remote rules (openstack mapping show <mapping>) with the claims shown by signin.exchange; ` +
        `a mapped user, group or domain that is disabled has the same effect. Keystone's log says which.`,
    };
  }
  if (e.status === 401) {
    return {
      message: `The identity service refused the token: ${describe(e)}.`,
      advice: 'The unscoped token was not accepted: run the chain again, and check that every identity service node shares the same fernet keys.',
    };
  }
  if (e.status === 404) {
    return { message: `Not found: ${describe(e)}.`, advice: 'Check identity_url (OS_AUTH_URL), federation_prefix, idp_id and protocol.' };
  }
  return { message: `The identity service answered ${describe(e)}.`, advice: 'Run with --verbose to see the request and answer, and read the identity service log.' };
}

/** Keystone signs in with a federation protocol only when `[auth] methods` in keystone.conf names it. */
function unsupportedMethod(e: ServerError, s: SigninSettings, working?: string): { message: string; advice: string } {
  const protocol = s.protocol;
  const listed = e.methods ? ` It accepts: ${e.methods.join(', ') || 'none'}.` : '';
  const message = `The identity service does not accept protocol "${protocol}" as a sign-in method: ${describe(e)}.${listed}`;
  if (working) {
    return {
      message: `${message} The same token signs in with protocol "${working}".`,
      advice:
        `Set protocol (OS_PROTOCOL, clouds.yaml auth.protocol) to ${working}: Keystone signs this token in with it. ` +
        `Only if "${protocol}" is a protocol of its own that you mean to use: add ${protocol} to [auth] methods in keystone.conf (methods = ${[...(e.methods ?? []), protocol].join(',')}) and restart the identity service.`,
    };
  }
  if (e.methods?.includes(protocol)) {
    return { message, advice: `"${protocol}" is in [auth] methods, yet Keystone refused it: check that every identity service node runs with the same keystone.conf and was restarted after the change.` };
  }
  return {
    message,
    advice:
      `Add ${protocol} to [auth] methods in keystone.conf (e.g. methods = ${[...(e.methods ?? ['password', 'token']), protocol].join(',')}) and restart the identity service; ` +
      `or, if "${protocol}" is not the protocol you meant, set protocol (OS_PROTOCOL) to one registered for identity provider "${s.idpId ?? '<idp>'}" (openstack federation protocol list --identity-provider ${s.idpId ?? '<idp>'}; usually "openid").`,
  };
}

/** A 401 from mod_auth_openidc (HTML page, `WWW-Authenticate: Bearer error=...`): Keystone never saw the token. */
function frontModuleRefused(e: ServerError, s: SigninSettings, token?: TokenFacts): { message: string; advice: string } {
  const message = `The module in front of the identity service (mod_auth_openidc) refused the broker token: ${describe(e)}.`;
  if (/no bearer token/i.test(e.description)) {
    return { message, advice: 'The Authorization header did not reach the web server of the identity service: a proxy or load balancer in front of it drops it; let it pass Authorization through.' };
  }
  const expired = token?.secondsLeft !== undefined && token.secondsLeft < 0 ? `The token sent had already expired (exp ${token.expiresAt}): check the clocks of the broker and this machine. ` : '';
  const realm = s.brokerUrl && s.realm ? { url: s.brokerUrl, realm: s.realm } : s.tokenEndpoint ? brokerOf(s.tokenEndpoint) : undefined;
  const keys = realm ? `${realm.url}/realms/${realm.realm}/protocol/openid-connect/certs` : "the broker realm's key set";
  return {
    message,
    advice:
      `${expired}mod_auth_openidc checks the token's signature against the broker's key set and its expiry. ` +
      `Check that its key set URL (OIDCOAuthVerifyJwksUri) is ${keys} and that the token is unexpired; ` +
      `after a broker key rotation it keeps the old key set cached for at least 300 s, so sign-in fails until that cache expires (or restart the web server).`,
  };
}
