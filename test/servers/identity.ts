/**
 * A test broker (Keycloak-like), identity service (Keystone-like) and compute-like API on one HTTPS
 * origin on 127.0.0.1, answering at the paths the platform's documents give (`mode: 'spec'`) or as real Keystone does
 * (`mode: 'keystone'`: GET /v3/projects 403, GET /v3/auth/projects 200, POST /v3/auth/projects 405,
 * POST /v3/auth/tokens 201). Every failure of the sign-in chain can be injected per step through
 * `server.fail`, which tests may change between runs.
 *
 * Paths: identity provider token `/idp/token`; broker `/realms/<realm>/protocol/openid-connect/token`;
 * identity service under `/identity` (`identityUrl`); compute under `/compute/v2.1`.
 */
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Pem, TestCA } from '../helpers/pki.js';

export type Step = 'idp-token' | 'exchange' | 'federated' | 'projects' | 'scope' | 'api' | 'admin';

export type Failure =
  // any step
  | 'status-500'
  | 'html'
  | 'not-json'
  | 'oversized'
  | 'redirect'
  | 'hang'
  | 'no-subject-token'
  | 'status-200'
  // broker (idp-token, exchange)
  | 'invalid-client'
  | 'exchange-not-permitted'
  | 'invalid-token'
  // Keycloak's standard exchange: the exchanging client is not in the subject token's audience
  | 'not-in-audience'
  | 'subject-issuer-unsupported'
  | 'invalid-issuer'
  // identity service
  | 'unauthorized'
  | 'mapping'
  | 'remote-id'
  // Keystone without insecure_debug: the reasons above hidden behind a bare 403 / JSON 401
  | 'remote-id-hidden'
  | 'mapping-hidden'
  // mod_auth_openidc in front of Keystone: no Authorization header reached it (a proxy dropped it)
  | 'bearer-dropped'
  | 'fernet-unrecognized'
  | 'token-expired'
  | 'no-project-access'
  // admin: the reader's role does not allow reading federation objects (403 identity:get_protocol)
  | 'forbidden';

export interface IdentityServerOptions {
  ca: TestCA;
  mode?: 'spec' | 'keystone';
  /** Serve another certificate (expired, wrong host, another CA). Default: the CA's for 127.0.0.1 and localhost. */
  cert?: Pem;
  /** Plain http instead of https. */
  plain?: boolean;
  realm?: string;
  clientId?: string;
  clientSecret?: string;
  /** The identity provider's access token the broker accepts as subject_token (default: a JWT of the server's own); a function gets the server's origin. */
  subjectToken?: string | ((origin: string) => string);
  idpClientId?: string;
  idpClientSecret?: string;
  /** Keycloak 26 standard ("V2") exchange: any subject_issuer is refused. */
  standardExchange?: boolean;
  /** Legacy ("V1") exchange of an external token: subject_issuer must be this alias. */
  requireSubjectIssuer?: string;
  idpId?: string;
  protocol?: string;
  federationPrefix?: string;
  projects?: { id: string; name: string; description?: string }[];
  user?: string;
  /** Keystone's `[auth] methods`: signing in with a protocol not listed answers 401 "unsupported method". */
  authMethods?: string[];
  fail?: Partial<Record<Step, Failure>>;
  /** Extra claims of the broker's access token; `null` removes one (e.g. `{ preferred_username: null }`). */
  brokerClaims?: Record<string, unknown>;
  /** The mapping of the federation protocol (`mapping_id` of the protocol). */
  mapping?: { id: string; rules: unknown[] };
  /** The identity admin (password sign-in, user domain "Default") and an application credential of it. */
  adminUsername?: string;
  adminPassword?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface IdentityServer {
  origin: string;
  brokerUrl: string;
  identityUrl: string;
  idpTokenUrl: string;
  realm: string;
  clientId: string;
  clientSecret: string;
  subjectToken: string;
  idpClientId: string;
  idpClientSecret: string;
  idpId: string;
  projects: { id: string; name: string; description?: string }[];
  /** Every token value the server issued (for "never printed" assertions). */
  issued: string[];
  requests: RecordedRequest[];
  /** Count of TLS (or TCP) connections accepted. */
  connections(): number;
  fail: Partial<Record<Step, Failure>>;
  mode: 'spec' | 'keystone';
  brokerClaims: Record<string, unknown>;
  mapping: { id: string; rules: unknown[] };
  adminUsername: string;
  adminPassword: string;
  applicationCredential: { id: string; secret: string };
  /** OS_USERNAME, OS_PASSWORD, OS_USER_DOMAIN_NAME, OS_PROJECT_NAME, OS_PROJECT_DOMAIN_NAME of the admin. */
  adminEnv(): Record<string, string>;
  /** Environment for the cloudgate binary pointing at this server (secrets included). */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function fakeJwt(claims: Record<string, unknown>): string {
  return `${b64url({ alg: 'RS256', typ: 'JWT', kid: 'test' })}.${b64url(claims)}.${randomBytes(32).toString('base64url')}`;
}

function expired(jwt: string): boolean {
  try {
    const exp = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()).exp;
    return typeof exp === 'number' && exp * 1000 < Date.now();
  } catch {
    return false;
  }
}

const fernet = () => `gAAAAA${randomBytes(60).toString('base64url')}`;

export async function startIdentityServer(options: IdentityServerOptions): Promise<IdentityServer> {
  const realm = options.realm ?? 'cloud';
  const clientId = options.clientId ?? 'cloudgate';
  const clientSecret = options.clientSecret ?? `broker-secret-${randomBytes(8).toString('hex')}`;
  const idpClientId = options.idpClientId ?? 'machine';
  const idpClientSecret = options.idpClientSecret ?? `idp-secret-${randomBytes(8).toString('hex')}`;
  const idpId = options.idpId ?? 'keycloak';
  const protocol = options.protocol ?? 'openid';
  const prefix = options.federationPrefix ?? 'OS';
  const user = options.user ?? 'alice';
  const authMethods = options.authMethods ?? ['password', 'token', protocol, 'application_credential'];
  const adminUsername = options.adminUsername ?? 'admin';
  const adminPassword = options.adminPassword ?? `admin-pw-${randomBytes(8).toString('hex')}`;
  const applicationCredential = {
    id: randomBytes(16).toString('hex'),
    secret: `app-cred-${randomBytes(12).toString('hex')}`,
  };
  const adminTokens = new Set<string>();
  const projects = options.projects ?? [
    { id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', name: 'demo', description: 'Demo project' },
    { id: '0f9e8d7c6b5a49382716f5e4d3c2b1a0', name: 'ops', description: 'Operations' },
  ];
  const now = () => Math.floor(Date.now() / 1000);
  const issued: string[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let origin = '';

  const issue = (token: string) => (issued.push(token), token);
  let subjectToken =
    typeof options.subjectToken === 'string'
      ? options.subjectToken
      : issue(
          fakeJwt({
            iss: `https://idp.test/realms/external`,
            aud: 'broker',
            sub: 'svc-1',
            azp: idpClientId,
            exp: now() + 3600,
          }),
        );
  const brokerTokens = new Set<string>();
  const unscopedTokens = new Set<string>();
  const scopedTokens = new Set<string>();

  const state = {
    fail: { ...(options.fail ?? {}) } as Partial<Record<Step, Failure>>,
    mode: options.mode ?? 'spec',
    brokerClaims: { ...(options.brokerClaims ?? {}) } as Record<string, unknown>,
    mapping: options.mapping ?? {
      id: `${idpId}-mapping`,
      rules: [
        {
          local: [{ user: { name: '{0}' } }, { group: { id: 'federated-users' } }],
          remote: [{ type: 'OIDC_CLAIM_preferred_username' }],
        },
      ],
    },
  };

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
  const oauthError = (res: ServerResponse, status: number, error: string, description: string) =>
    json(res, status, { error, error_description: description });
  const keystoneError = (res: ServerResponse, status: number, title: string, message: string) =>
    json(res, status, { error: { code: status, title, message } });

  /** Failures every step can show; returns true when it answered. */
  function generic(step: Step, res: ServerResponse): boolean {
    switch (state.fail[step]) {
      case 'status-500':
        keystoneError(
          res,
          500,
          'Internal Server Error',
          'An unexpected error prevented the server from fulfilling your request.',
        );
        return true;
      case 'html':
        res
          .writeHead(502, { 'content-type': 'text/html' })
          .end('<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>');
        return true;
      case 'not-json':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('OK but not JSON');
        return true;
      case 'oversized':
        res.writeHead(200, { 'content-type': 'application/json' }).end(`{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
        return true;
      case 'redirect':
        res.writeHead(302, { location: `${origin}/login?step=${step}` }).end();
        return true;
      case 'hang':
        return true; // never answers
      default:
        return false;
    }
  }

  const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

  function idpTokenEndpoint(body: string, res: ServerResponse) {
    if (generic('idp-token', res)) return;
    const f = form(body);
    if (
      state.fail['idp-token'] === 'invalid-client' ||
      f.client_id !== idpClientId ||
      f.client_secret !== idpClientSecret
    ) {
      return oauthError(res, 401, 'invalid_client', 'Invalid client or Invalid client credentials');
    }
    if (f.grant_type !== 'client_credentials')
      return oauthError(res, 400, 'unsupported_grant_type', 'Unsupported grant_type');
    json(res, 200, { access_token: subjectToken, expires_in: 3600, token_type: 'Bearer' });
  }

  function exchangeEndpoint(path: string, body: string, res: ServerResponse) {
    if (path !== `/realms/${realm}/protocol/openid-connect/token`)
      return json(res, 404, { error: 'Realm does not exist' });
    if (generic('exchange', res)) return;
    const f = form(body);
    const fail = state.fail.exchange;
    if (fail === 'invalid-client' || f.client_id !== clientId || f.client_secret !== clientSecret) {
      return oauthError(res, 401, 'unauthorized_client', 'Invalid client or Invalid client credentials');
    }
    if (fail === 'exchange-not-permitted')
      return oauthError(res, 403, 'access_denied', 'Client not allowed to exchange');
    if (fail === 'not-in-audience')
      return oauthError(res, 403, 'access_denied', 'Client is not within the token audience');
    if (fail === 'subject-issuer-unsupported' || (f.subject_issuer && options.standardExchange)) {
      return oauthError(
        res,
        400,
        'invalid_request',
        "Parameter 'subject_issuer' is not supported for standard token exchange",
      );
    }
    if (
      fail === 'invalid-issuer' ||
      (options.requireSubjectIssuer && f.subject_issuer && f.subject_issuer !== options.requireSubjectIssuer)
    ) {
      return oauthError(res, 400, 'invalid_issuer', 'Invalid subject_issuer parameter');
    }
    if (
      fail === 'invalid-token' ||
      f.subject_token !== subjectToken ||
      expired(f.subject_token) ||
      (options.requireSubjectIssuer && !f.subject_issuer)
    ) {
      return oauthError(res, 400, 'invalid_token', 'Invalid token');
    }
    if (
      f.grant_type !== 'urn:ietf:params:oauth:grant-type:token-exchange' ||
      f.subject_token_type !== 'urn:ietf:params:oauth:token-type:access_token'
    ) {
      return oauthError(res, 400, 'invalid_request', 'Invalid grant_type or subject_token_type');
    }
    const claims: Record<string, unknown> = {
      iss: `${origin}/realms/${realm}`,
      aud: clientId,
      sub: 'f1d2-user',
      preferred_username: user,
      azp: clientId,
      exp: now() + 300,
      ...state.brokerClaims,
    };
    const access = issue(fakeJwt(Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== null))));
    const refresh = issue(fakeJwt({ typ: 'Refresh', exp: now() + 1800 }));
    brokerTokens.add(access);
    // The platform's documents show expires_in as a string, so the test broker sends one.
    json(res, 200, { access_token: access, refresh_token: refresh, expires_in: '300', token_type: 'Bearer' });
  }

  const tokenObject = (scoped?: { id: string; name: string }) => ({
    methods: ['token'],
    expires_at: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, '.000000Z'),
    issued_at: new Date().toISOString().replace(/\.\d+Z$/, '.000000Z'),
    user: { id: 'u-123', name: user, domain: { id: 'Federated', name: 'Federated' } },
    audit_ids: [randomBytes(8).toString('base64url')],
    ...(scoped
      ? {
          project: { id: scoped.id, name: scoped.name, domain: { id: 'default', name: 'Default' } },
          catalog: [
            {
              id: 'svc-compute',
              name: 'nova',
              type: 'compute',
              endpoints: [
                { id: 'e1', interface: 'public', region: 'RegionOne', url: `${origin}/compute/v2.1` },
                { id: 'e2', interface: 'internal', region: 'RegionOne', url: 'http://nova.internal:8774/v2.1' },
              ],
            },
            {
              id: 'svc-identity',
              name: 'keystone',
              type: 'identity',
              endpoints: [{ id: 'e3', interface: 'public', region: 'RegionOne', url: `${origin}/identity` }],
            },
          ],
        }
      : {}),
  });

  function federatedEndpoint(method: string, path: string, req: IncomingMessage, res: ServerResponse) {
    const m = /^\/v3\/([^/]+)-FEDERATION\/identity_providers\/([^/]+)\/protocols\/([^/]+)\/auth$/.exec(path);
    if (!m || m[1] !== prefix) return keystoneError(res, 404, 'Not Found', 'The resource could not be found.');
    if (method !== 'GET' && method !== 'POST')
      return keystoneError(res, 405, 'Method Not Allowed', 'The method is not allowed.');
    if (generic('federated', res)) return;
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const fail = state.fail.federated;
    // mod_auth_openidc in front: no or unknown bearer token never reaches Keystone.
    if (fail === 'bearer-dropped') {
      res.writeHead(401, {
        'www-authenticate': 'Bearer error="invalid_request", error_description="No bearer token found in the request"',
        'content-type': 'text/html',
      });
      return res.end('<html><head><title>401 Unauthorized</title></head><body>Unauthorized</body></html>');
    }
    if (fail === 'unauthorized' || !bearer || !brokerTokens.has(bearer)) {
      res.writeHead(401, {
        'www-authenticate': 'Bearer error="invalid_token", error_description="token could not be validated"',
        'content-type': 'text/html',
      });
      return res.end('<html><head><title>401 Unauthorized</title></head><body>Unauthorized</body></html>');
    }
    if (decodeURIComponent(m[2]!) !== idpId)
      return keystoneError(res, 404, 'Not Found', `Could not find Identity Provider: ${decodeURIComponent(m[2]!)}.`);
    if (decodeURIComponent(m[3]!) !== protocol)
      return keystoneError(
        res,
        404,
        'Not Found',
        `Could not find federated protocol ${decodeURIComponent(m[3]!)} for Identity Provider: ${idpId}.`,
      );
    if (!authMethods.includes(protocol)) {
      res.setHeader('www-authenticate', `Keystone uri="${origin}/identity/v3"`);
      return json(res, 401, {
        error: {
          code: 401,
          identity: { methods: authMethods },
          message: 'Attempted to authenticate with an unsupported method.',
          title: 'Unauthorized',
        },
      });
    }
    if (fail === 'remote-id')
      return keystoneError(
        res,
        403,
        'Forbidden',
        'Incoming identity provider identifier not included among the accepted identifiers.',
      );
    if (fail === 'remote-id-hidden')
      return keystoneError(res, 403, 'Forbidden', 'You are not authorized to perform the requested action.');
    if (fail === 'mapping-hidden') {
      // Keystone's own 401s carry its own challenge, unlike mod_auth_openidc's "Bearer".
      res.setHeader('www-authenticate', `Keystone uri="${origin}/identity/v3"`);
      return keystoneError(res, 401, 'Unauthorized', 'The request you have made requires authentication.');
    }
    if (fail === 'mapping')
      return keystoneError(
        res,
        401,
        'Unauthorized',
        'Could not map any federated user properties to identity values. Check debug logs or the mapping used for additional details.',
      );
    const token = issue(fernet());
    unscopedTokens.add(token);
    if (fail === 'no-subject-token') return json(res, 201, { token: tokenObject() });
    if (fail === 'status-200') return json(res, 200, { token: tokenObject() }, { 'x-subject-token': token });
    json(res, 201, { token: tokenObject() }, { 'x-subject-token': token });
  }

  /**
   * Password and application-credential sign-in as Keystone answers it: 201 with the token in
   * X-Subject-Token, or 401 "The request you have made requires authentication." for wrong credentials.
   */
  function adminAuth(parsed: any, res: ServerResponse) {
    if (generic('admin', res)) return;
    const identity = parsed?.auth?.identity ?? {};
    const methods: string[] = identity.methods ?? [];
    let ok = false;
    if (methods.includes('password')) {
      const u = identity.password?.user ?? {};
      const domainOk = u.domain?.id === 'default' || String(u.domain?.name ?? '').toLowerCase() === 'default';
      if (!u.domain)
        return keystoneError(
          res,
          400,
          'Bad Request',
          'Expecting to find domain in user. The server could not comply with the request since it is either malformed or otherwise incorrect. The client is assumed to be in error.',
        );
      ok = u.name === adminUsername && u.password === adminPassword && domainOk;
      if (parsed?.auth?.scope && parsed.auth.scope.project && parsed.auth.scope.project.name !== 'admin') ok = false;
    } else if (methods.includes('application_credential')) {
      if (parsed?.auth?.scope)
        return keystoneError(res, 401, 'Unauthorized', 'Application credentials cannot request a scope.');
      const c = identity.application_credential ?? {};
      ok = c.id === applicationCredential.id && c.secret === applicationCredential.secret;
    }
    if (state.fail.admin === 'unauthorized' || !ok)
      return keystoneError(res, 401, 'Unauthorized', 'The request you have made requires authentication.');
    const token = issue(fernet());
    adminTokens.add(token);
    json(
      res,
      201,
      {
        token: {
          methods,
          user: { id: 'admin-id', name: adminUsername, domain: { id: 'default', name: 'Default' } },
          roles: [{ id: 'r1', name: 'admin' }],
        },
      },
      { 'x-subject-token': token },
    );
  }

  /** A sign-in with a password or an application credential (not the token method of scoping). */
  function adminMethod(body: string): boolean {
    try {
      const methods = JSON.parse(body)?.auth?.identity?.methods;
      return Array.isArray(methods) && methods.some((m) => m === 'password' || m === 'application_credential');
    } catch {
      return false;
    }
  }

  /** GET of the federation protocol and of a mapping (admin or reader token). */
  function federationRead(path: string, req: IncomingMessage, res: ServerResponse) {
    const token = req.headers['x-auth-token'] as string | undefined;
    if (!token || !adminTokens.has(token))
      return keystoneError(res, 401, 'Unauthorized', 'The request you have made requires authentication.');
    const protocolPath = /^\/v3\/([^/]+)-FEDERATION\/identity_providers\/([^/]+)\/protocols\/([^/]+)$/.exec(path);
    const mappingPath = /^\/v3\/([^/]+)-FEDERATION\/mappings\/([^/]+)$/.exec(path);
    if (state.fail.admin === 'forbidden') {
      return keystoneError(
        res,
        403,
        'Forbidden',
        `You are not authorized to perform the requested action: identity:${protocolPath ? 'get_protocol' : 'get_mapping'}.`,
      );
    }
    if (protocolPath && protocolPath[1] === prefix) {
      const idp = decodeURIComponent(protocolPath[2]!);
      const proto = decodeURIComponent(protocolPath[3]!);
      if (idp !== idpId) return keystoneError(res, 404, 'Not Found', `Could not find Identity Provider: ${idp}.`);
      if (proto !== protocol)
        return keystoneError(
          res,
          404,
          'Not Found',
          `Could not find federated protocol ${proto} for Identity Provider: ${idpId}.`,
        );
      return json(res, 200, {
        protocol: {
          id: protocol,
          mapping_id: state.mapping.id,
          remote_id_attribute: null,
          links: {
            self: `${origin}/identity${path}`,
            identity_provider: `${origin}/identity/v3/${prefix}-FEDERATION/identity_providers/${idpId}`,
          },
        },
      });
    }
    if (mappingPath && mappingPath[1] === prefix) {
      const id = decodeURIComponent(mappingPath[2]!);
      if (id !== state.mapping.id) return keystoneError(res, 404, 'Not Found', `Could not find mapping: ${id}.`);
      return json(res, 200, {
        mapping: {
          id,
          rules: state.mapping.rules,
          schema_version: '1.0',
          links: { self: `${origin}/identity${path}` },
        },
      });
    }
    return keystoneError(res, 404, 'Not Found', 'The resource could not be found.');
  }

  /** Keystone's answers to a token it does not know, shared by Endpoints 3 and 4. */
  function badToken(token: string | undefined, res: ServerResponse, step: Step): boolean {
    const fail = state.fail[step];
    if (fail === 'fernet-unrecognized' || !token) {
      keystoneError(res, 404, 'Not Found', 'Could not recognize Fernet token');
      return true;
    }
    if (fail === 'token-expired') {
      keystoneError(res, 404, 'Not Found', 'Failed to validate token');
      return true;
    }
    if (!unscopedTokens.has(token)) {
      keystoneError(res, 404, 'Not Found', 'Could not recognize Fernet token');
      return true;
    }
    return false;
  }

  function projectsEndpoint(path: string, req: IncomingMessage, res: ServerResponse) {
    const specPath = path === '/v3/projects';
    if (specPath && state.mode === 'keystone') {
      return keystoneError(
        res,
        403,
        'Forbidden',
        'You are not authorized to perform the requested action: identity:list_projects.',
      );
    }
    if (!specPath && state.mode === 'spec')
      return keystoneError(res, 404, 'Not Found', 'The resource could not be found.');
    if (generic('projects', res)) return;
    if (badToken(req.headers['x-auth-token'] as string | undefined, res, 'projects')) return;
    json(res, 200, {
      projects: projects.map((p) => ({ ...p, domain_id: 'default', enabled: true })),
      links: { self: `${origin}/identity${path}` },
    });
  }

  function scopeEndpoint(path: string, req: IncomingMessage, body: string, res: ServerResponse) {
    const specPath = path === '/v3/auth/projects';
    if (specPath && state.mode === 'keystone') {
      res.writeHead(405, { allow: 'OPTIONS, GET, HEAD', 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          error: {
            code: 405,
            title: 'Method Not Allowed',
            message: 'The method is not allowed for the requested URL.',
          },
        }),
      );
    }
    if (!specPath && state.mode === 'spec')
      return keystoneError(res, 404, 'Not Found', 'The resource could not be found.');
    if (generic('scope', res)) return;
    const header = req.headers['x-auth-token'] as string | undefined;
    let parsed: any;
    try {
      parsed = JSON.parse(body);
    } catch {
      return keystoneError(res, 400, 'Bad Request', 'Expecting to find auth in request body.');
    }
    const bodyToken = parsed?.auth?.identity?.token?.id;
    if (!parsed?.auth?.identity?.methods?.includes('token'))
      return keystoneError(res, 400, 'Bad Request', 'Expecting to find identity.methods with token.');
    if (badToken(bodyToken, res, 'scope')) return;
    if (header !== undefined && header !== bodyToken && state.mode === 'spec')
      return keystoneError(res, 401, 'Unauthorized', 'The request you have made requires authentication.');
    const projectId = parsed?.auth?.scope?.project?.id;
    const project = projects.find((p) => p.id === projectId);
    if (state.fail.scope === 'no-project-access' || !project) {
      return keystoneError(res, 401, 'Unauthorized', `User u-123 has no access to project ${projectId}`);
    }
    const token = issue(fernet());
    scopedTokens.add(token);
    if (state.fail.scope === 'no-subject-token') return json(res, 201, { token: tokenObject(project) });
    if (state.fail.scope === 'status-200')
      return json(res, 200, { token: tokenObject(project) }, { 'x-subject-token': token });
    json(res, 201, { token: tokenObject(project) }, { 'x-subject-token': token });
  }

  function computeEndpoint(path: string, req: IncomingMessage, res: ServerResponse) {
    if (generic('api', res)) return;
    const token = req.headers['x-auth-token'] as string | undefined;
    if (state.fail.api === 'unauthorized' || !token || !scopedTokens.has(token)) {
      return json(res, 401, {
        error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' },
      });
    }
    if (path === '/compute/v2.1/servers') return json(res, 200, { servers: [{ id: 's1', name: 'web-1', links: [] }] });
    return json(res, 404, { itemNotFound: { code: 404, message: 'Not found' } });
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const path = (req.url ?? '/').split('?')[0]!;
      requests.push({ method, path, headers: req.headers, body });
      if (path.startsWith('/login'))
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><title>Sign in</title></html>');
      if (path === '/idp/token' && method === 'POST') return idpTokenEndpoint(body, res);
      if (path.startsWith('/realms/') && method === 'POST') return exchangeEndpoint(path, body, res);
      if (path.startsWith('/identity/')) {
        const sub = path.slice('/identity'.length);
        if (sub.includes('-FEDERATION/') && method === 'GET' && !sub.endsWith('/auth'))
          return federationRead(sub, req, res);
        if (sub.includes('-FEDERATION/')) return federatedEndpoint(method, sub, req, res);
        if ((sub === '/v3/projects' || sub === '/v3/auth/projects') && method === 'GET')
          return projectsEndpoint(sub, req, res);
        if (sub === '/v3/auth/tokens' && method === 'POST' && adminMethod(body))
          return adminAuth(JSON.parse(body), res);
        if ((sub === '/v3/auth/projects' || sub === '/v3/auth/tokens') && method === 'POST')
          return scopeEndpoint(sub, req, body, res);
        return keystoneError(res, 404, 'Not Found', 'The resource could not be found.');
      }
      if (path.startsWith('/compute/')) return computeEndpoint(path, req, res);
      json(res, 404, { error: 'not_found' });
    });
  };

  let server: Server;
  if (options.plain) {
    server = createHttpServer({ keepAliveTimeout: 30_000 }, handler);
    server.on('connection', () => connections++);
  } else {
    const cert = options.cert ?? options.ca.issue(['127.0.0.1', 'localhost']);
    server = createHttpsServer({ cert: cert.cert, key: cert.key, keepAliveTimeout: 30_000 }, handler);
    server.on('secureConnection', () => connections++);
  }
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `${options.plain ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  if (typeof options.subjectToken === 'function') subjectToken = issue(options.subjectToken(origin));

  const api: IdentityServer = {
    origin,
    brokerUrl: origin,
    identityUrl: `${origin}/identity`,
    idpTokenUrl: `${origin}/idp/token`,
    realm,
    clientId,
    clientSecret,
    subjectToken,
    idpClientId,
    idpClientSecret,
    idpId,
    projects,
    issued,
    requests,
    connections: () => connections,
    get fail() {
      return state.fail;
    },
    set fail(value) {
      state.fail = value;
    },
    get mode() {
      return state.mode;
    },
    set mode(value) {
      state.mode = value;
    },
    get brokerClaims() {
      return state.brokerClaims;
    },
    set brokerClaims(value) {
      state.brokerClaims = value;
    },
    get mapping() {
      return state.mapping;
    },
    set mapping(value) {
      state.mapping = value;
    },
    adminUsername,
    adminPassword,
    applicationCredential,
    adminEnv() {
      return {
        OS_USERNAME: adminUsername,
        OS_PASSWORD: adminPassword,
        OS_USER_DOMAIN_NAME: 'Default',
        OS_PROJECT_NAME: 'admin',
        OS_PROJECT_DOMAIN_NAME: 'Default',
      };
    },
    env(extra = {}) {
      return {
        CLOUDGATE_BROKER_URL: origin,
        CLOUDGATE_REALM: realm,
        CLOUDGATE_CLIENT_ID: clientId,
        CLOUDGATE_CLIENT_SECRET: clientSecret,
        CLOUDGATE_SUBJECT_TOKEN: subjectToken,
        OS_AUTH_URL: `${origin}/identity/v3`,
        OS_IDENTITY_PROVIDER: idpId,
        OS_PROTOCOL: protocol,
        OS_CACERT: options.ca.file,
        ...extra,
      };
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}
