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
import { BROKER, BROKER_NOT_FOUND } from './messages/broker.js';
import { FRONT_MODULE, IDENTITY, METHOD } from './messages/identity.js';

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
  return {
    status: res.status,
    code,
    description: redact(description),
    keystone,
    challenged,
    ...(methods ? { methods } : {}),
  };
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
  const inner = (
    /<body[^>]*>([\s\S]*?)(?:<\/body>|$)/i.exec(body)?.[1] ?? body.replace(/<title[^>]*>[^<]*<\/title>/i, '')
  )
    .split(/<hr\b/i)[0]
    .replace(/<h1[^>]*>[\s\S]*?<\/h1>/gi, ' ')
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ');
  const text = inner
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#?\w+);/g, (whole, name: string) => ENTITIES[name] ?? whole)
    .replace(/\s+/g, ' ')
    .trim();
  const said = text && !title.includes(text) ? `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}` : '';
  return `an HTML page "${title}"${said}`;
}

/** A web server that says the request came in plain HTTP to its TLS port (Apache's and nginx's own words). */
export function plainHttpToTls(e: ServerError): boolean {
  return /plain HTTP to an SSL-enabled server port|plain HTTP request was sent to HTTPS port|use the HTTPS scheme/i.test(
    e.description,
  );
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
export function brokerAdvice(
  e: ServerError,
  s: SigninSettings,
  party: 'broker' | 'idp' = 'broker',
  request: BrokerRequest = {},
): { message: string; advice: string } {
  const where = party === 'broker' ? BROKER.broker(s.realm) : BROKER.identityProvider;
  const client = party === 'broker' ? (s.clientId ?? '') : (s.idpClientId ?? '');
  const clientKey = party === 'broker' ? 'client_id' : 'idp_client_id';
  const secretKey = party === 'broker' ? BROKER.brokerSecret : BROKER.idpSecret;
  const url = request.url ?? '';
  const urlKey = party === 'idp' ? 'idp_token_url' : s.tokenEndpoint ? 'token_endpoint' : 'broker_url';
  if (plainHttpToTls(e)) {
    return { message: BROKER.answered(where, describe(e)), advice: BROKER.httpToTls(urlKey) };
  }
  if (e.code === 'invalid_client' || e.code === 'unauthorized_client') {
    const rejected = BROKER.rejectedClient(where, describe(e));
    const inRealm = s.realm && party === 'broker' ? BROKER.inRealm(s.realm) : '';
    if (has(e, /Invalid client or Invalid client credentials/i)) {
      return { message: rejected, advice: BROKER.wrongSecret(client, inRealm, secretKey) };
    }
    if (e.status === 400 && has(e, /^\s*\S+\s+Invalid client credentials\s*$/i)) {
      return { message: rejected, advice: BROKER.noClient(client, inRealm, clientKey) };
    }
    if (has(e, /Missing client_id/i)) return { message: rejected, advice: BROKER.setClientId(clientKey) };
    if (has(e, /not enabled to retrieve service account|Public client not allowed to retrieve service account/i)) {
      return { message: rejected, advice: BROKER.noServiceAccount(client) };
    }
    if (has(e, /not allowed for direct access grants/i)) {
      return { message: rejected, advice: BROKER.noDirectGrant(client) };
    }
    return {
      message: rejected,
      advice:
        party === 'broker'
          ? BROKER.wrongClientAtBroker(client, secretKey, s.realm ? BROKER.inRealm(s.realm) : '')
          : BROKER.wrongClientAtIdp(client, secretKey),
    };
  }
  if (e.code === 'invalid_grant' && has(e, /Invalid user credentials/i)) {
    return { message: BROKER.refusedUser(where, describe(e)), advice: BROKER.wrongPassword(s.username ?? '') };
  }
  if (has(e, /not within the token audience/i)) {
    return { message: BROKER.refusedExchange(where, describe(e)), advice: BROKER.addAudience(s.clientId ?? '') };
  }
  if (has(e, /Standard token exchange is not enabled/i)) {
    return { message: BROKER.exchangeDisabled(where, describe(e)), advice: BROKER.enableStandardExchange(client) };
  }
  if (e.code === 'access_denied' || has(e, /not allowed to exchange/i)) {
    return {
      message: BROKER.exchangeNotPermitted(where, describe(e)),
      advice: BROKER.permitExchange(client, s.subjectIssuer),
    };
  }
  if (has(e, /subject_issuer/i) && has(e, /not supported/i)) {
    return {
      message: BROKER.refusesSubjectIssuer(where, describe(e)),
      advice: BROKER.removeSubjectIssuer,
    };
  }
  if (e.code === 'invalid_issuer') {
    return {
      message: BROKER.unknownSubjectIssuer(where, s.subjectIssuer ?? '', describe(e)),
      advice: BROKER.setSubjectIssuerAlias,
    };
  }
  if (
    e.code === 'invalid_token' ||
    (e.code === 'invalid_request' && has(e, /invalid token|token.*(expired|not active|invalid)/i))
  ) {
    return {
      message: BROKER.rejectedSubjectToken(where, describe(e)),
      advice: s.subjectIssuer ? BROKER.checkSubjectToken(s.subjectIssuer, s.realm ?? '?') : BROKER.setSubjectIssuer,
    };
  }
  if (e.code === 'unsupported_grant_type') {
    const grant =
      request.grant === 'exchange' || !request.grant
        ? BROKER.tokenExchange
        : request.grant === 'password'
          ? BROKER.passwordGrant
          : BROKER.clientCredentialsGrant;
    return {
      message: BROKER.grantNotOffered(where, grant, url || BROKER.itsTokenEndpoint, describe(e)),
      advice: BROKER.enableGrant(
        grant,
        request.grant === 'exchange' ? BROKER.tokenExchangeFeature : BROKER.forClient(client),
        urlKey,
      ),
    };
  }
  if (e.code === 'invalid_scope') {
    return {
      message: BROKER.refusedScope(where, describe(e)),
      advice: party === 'idp' ? BROKER.checkIdpScope(s.idpScope ?? '') : BROKER.checkOpenidScope(s.openidScope),
    };
  }
  if (e.status === 404 && party === 'idp') {
    return { message: BROKER.answered(where, describe(e)), advice: BROKER.checkIdpTokenUrl };
  }
  if (e.status === 404) return notFoundAtBroker(e, s, url, urlKey);
  return { message: BROKER.answered(where, describe(e)), advice: BROKER.readAnswer };
}

/** A 404 of the broker, by what it said: no such realm, a path Keycloak does not serve (the old /auth prefix), or not Keycloak at all. */
function notFoundAtBroker(
  e: ServerError,
  s: SigninSettings,
  url: string,
  urlKey: string,
): { message: string; advice: string } {
  const message = BROKER_NOT_FOUND.notFound(describe(e));
  if (has(e, /Realm does not exist/i)) {
    return { message, advice: BROKER_NOT_FOUND.noRealm(s.realm ?? brokerRealmOf(url) ?? '') };
  }
  const keycloakSaysNoPath = has(e, /Unable to find matching target resource method|RESTEASY003210/i);
  if (keycloakSaysNoPath && /\/auth\/realms\//.test(url)) {
    return { message, advice: BROKER_NOT_FOUND.removeAuthPrefix(urlKey, url.replace('/auth/realms/', '/realms/')) };
  }
  if (keycloakSaysNoPath) {
    return { message, advice: BROKER_NOT_FOUND.nothingAtPath(url, urlKey, !s.tokenEndpoint) };
  }
  const legacy = /\/realms\//.test(url) && !/\/auth\/realms\//.test(url) ? BROKER_NOT_FOUND.legacyAuthPrefix : '';
  return {
    message,
    advice: BROKER_NOT_FOUND.checkUrlAndRealm(urlKey, s.tokenEndpoint ? undefined : (s.realm ?? ''), legacy),
  };
}

const brokerRealmOf = (url: string) => /\/realms\/([^/]+)/.exec(url)?.[1];

/**
 * The identity service (sign-in, projects, scope): Keystone's messages. Without `insecure_debug` Keystone hides the reason of a federated
 * sign-in failure (a bare 403 or 401, the detail only in its log), so at the federated sign-in the status and who
 * answered (Keystone's JSON or the module in front of it) point at the likely cause; `token` holds the
 * decoded claims of the broker token that was sent.
 */
export function identityAdvice(
  e: ServerError,
  s: SigninSettings,
  context: {
    step?: 'federated' | 'projects' | 'scope';
    token?: TokenFacts;
    working_protocol?: string;
    v3_url?: string;
  } = {},
): { message: string; advice: string } {
  const d = e.description;
  if (plainHttpToTls(e)) {
    return { message: IDENTITY.answered(describe(e)), advice: IDENTITY.httpToTls };
  }
  if (context.v3_url) {
    return {
      message: IDENTITY.wrongVersion(
        describe(e),
        /\/v[\d.]+$/.exec(s.identityUrl ?? '')?.[0] ?? IDENTITY.aVersion,
        context.v3_url,
      ),
      advice: IDENTITY.setV3Url(context.v3_url),
    };
  }
  const idp = s.idpId ?? '<idp>';
  const issuer = context.token?.issuer;
  const iss = issuer ? `"${issuer}"` : IDENTITY.noReadableIss;
  if (/Could not map any federated user properties/i.test(d)) {
    return {
      message: IDENTITY.mappedNothing(describe(e)),
      advice: IDENTITY.compareMapping(s.idpId ?? '', s.protocol),
    };
  }
  if (/unsupported method/i.test(d)) return unsupportedMethod(e, s, context.working_protocol);
  if (/Could not find federated protocol/i.test(d)) {
    return { message: IDENTITY.protocolNotFound(describe(e)), advice: IDENTITY.setProtocol(s.idpId ?? '<idp>') };
  }
  if (/Could not find Identity Provider/i.test(d)) {
    return { message: IDENTITY.idpNotFound(describe(e)), advice: IDENTITY.setIdpId };
  }
  if (/not included among the accepted identifiers/i.test(d)) {
    return {
      message: IDENTITY.issuerNotAccepted(describe(e)),
      advice: IDENTITY.addRemoteId(iss, idp),
    };
  }
  const noAccess = /User (.+) has no access to project (.+)/i.exec(d);
  if (noAccess) {
    return {
      message: IDENTITY.noProjectAccess(describe(e)),
      advice: IDENTITY.grantRole(noAccess[1], unstop(noAccess[2])),
    };
  }
  if (/Could not recognize Fernet token/i.test(d)) {
    return { message: IDENTITY.unknownToken(describe(e)), advice: IDENTITY.shareFernetKeys };
  }
  if (/Failed to validate token/i.test(d)) {
    return { message: IDENTITY.tokenInvalid(describe(e)), advice: IDENTITY.runAgain };
  }
  if (context.step === 'federated' && e.status === 403 && e.keystone) {
    return {
      message: IDENTITY.refusedFederated(describe(e)),
      advice: IDENTITY.federatedCauses(iss, idp, s.protocol, issuer ?? '<iss>'),
    };
  }
  if (context.step === 'federated' && e.status === 401 && (e.challenged || !e.keystone))
    return frontModuleRefused(e, s, context.token);
  if (context.step === 'federated' && e.status === 401) {
    return {
      message: IDENTITY.signedNoOneIn(describe(e)),
      advice: IDENTITY.mappingMatchedNothing(idp, s.protocol),
    };
  }
  if (e.status === 401) {
    return {
      message: IDENTITY.refusedToken(describe(e)),
      advice: IDENTITY.unscopedRefused,
    };
  }
  if (e.status === 404) {
    return { message: IDENTITY.notFound(describe(e)), advice: IDENTITY.checkUrlAndNames };
  }
  return { message: IDENTITY.answered(describe(e)), advice: IDENTITY.readLog };
}

/** Keystone signs in with a federation protocol only when `[auth] methods` in keystone.conf names it. */
function unsupportedMethod(e: ServerError, s: SigninSettings, working?: string): { message: string; advice: string } {
  const protocol = s.protocol;
  const listed = e.methods ? METHOD.accepts(e.methods) : '';
  const message = METHOD.notAccepted(protocol, describe(e), listed);
  if (working) {
    return {
      message: METHOD.worksWith(message, working),
      advice: METHOD.useWorking(working, protocol, [...(e.methods ?? []), protocol].join(',')),
    };
  }
  if (e.methods?.includes(protocol)) {
    return { message, advice: METHOD.listedYetRefused(protocol) };
  }
  return {
    message,
    advice: METHOD.addMethod(
      protocol,
      [...(e.methods ?? ['password', 'token']), protocol].join(','),
      s.idpId ?? '<idp>',
    ),
  };
}

/** A 401 from mod_auth_openidc (HTML page, `WWW-Authenticate: Bearer error=...`): Keystone never saw the token. */
function frontModuleRefused(
  e: ServerError,
  s: SigninSettings,
  token?: TokenFacts,
): { message: string; advice: string } {
  const message = FRONT_MODULE.refused(describe(e));
  if (/no bearer token/i.test(e.description)) {
    return { message, advice: FRONT_MODULE.passAuthorization };
  }
  const expired =
    token?.secondsLeft !== undefined && token.secondsLeft < 0 ? FRONT_MODULE.alreadyExpired(token.expiresAt) : '';
  const realm =
    s.brokerUrl && s.realm
      ? { url: s.brokerUrl, realm: s.realm }
      : s.tokenEndpoint
        ? brokerOf(s.tokenEndpoint)
        : undefined;
  const keys = realm ? `${realm.url}/realms/${realm.realm}/protocol/openid-connect/certs` : FRONT_MODULE.realmKeySet;
  return { message, advice: FRONT_MODULE.checkKeySet(expired, keys) };
}
