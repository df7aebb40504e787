/**
 * The sign-in chain (SPEC.md Area A, Endpoints 1-4, then one cloud API call), one function per step,
 * shared by `cloudgate doctor --only signin` and `cloudgate token`. Every token is registered as a
 * secret the moment it arrives; results carry only decoded facts about tokens, never the tokens.
 */
import type { HttpClient, HttpResponse } from '../http.js';
import { registerSecret } from '../secrets.js';
import { brokerAdvice, identityAdvice, serverError, StepError } from './advice.js';
import { describeFacts, formatLeft, tokenFacts, type TokenFacts } from './jwt.js';
import type { SigninSettings } from './settings.js';

export interface StepEnv {
  http: HttpClient;
  settings: SigninSettings;
  signal?: AbortSignal;
}

export interface StepResult<T> {
  value: T;
  /** What the step proved, one line. */
  message: string;
  /** Set when the step worked only in a way that needs attention (becomes `warn`). */
  warning?: string;
  details: Record<string, unknown>;
}

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

function form(fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) params.set(k, v);
  return params.toString();
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function took(res: HttpResponse): string {
  return `${res.status} in ${res.durationMs} ms`;
}

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
    throw new StepError(`${what} answered ${res.status} without an access_token in the JSON body.`, 'Check that the URL is the OAuth token endpoint of the right server (run with --verbose to see the answer).');
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
    body: form({ grant_type: 'client_credentials', client_id: s.idpClientId, client_secret: s.idpClientSecret, scope: s.idpScope }),
    credentials: true,
    signal: env.signal,
  });
  if (res.status < 200 || res.status > 299) {
    const { message, advice } = brokerAdvice(serverError(res), s, 'idp');
    throw new StepError(message, advice, { url: s.idpTokenUrl, status: res.status });
  }
  const token = oauthToken(res, 'The identity provider');
  const facts = tokenFacts(token.accessToken);
  return {
    value: token.accessToken,
    message: `Identity provider issued an access token (${took(res)}): ${factsLine(facts)}${token.expiresIn !== undefined ? `, expires_in ${token.expiresIn} s` : ''}.`,
    details: compact({ url: s.idpTokenUrl, status: res.status, claims: facts, expires_in: token.expiresIn }),
  };
}

/** Details without empty entries, so `--verbose` and `--json` show only what is known. */
function compact(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

export function exchangeUrl(s: SigninSettings): string {
  return `${s.brokerUrl}/realms/${encodeURIComponent(s.realm ?? '')}/protocol/openid-connect/token`;
}

/** Endpoint 1: the identity provider's token for a broker token. */
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
    const { message, advice } = brokerAdvice(error, s);
    const subject = tokenFacts(subjectToken);
    const expired = subject?.secondsLeft !== undefined && subject.secondsLeft < 0 ? ` The subject token ${formatLeft(subject.secondsLeft)} (exp ${subject.expiresAt}).` : '';
    throw new StepError(message + expired, advice, compact({ url, status: res.status, error: error.code, subject_token_claims: subject }));
  }
  const token = oauthToken(res, 'The broker');
  const facts = tokenFacts(token.accessToken);
  const lifetime = token.expiresIn !== undefined ? `, expires_in ${token.expiresIn} s` : '';
  return {
    value: token.accessToken,
    message: `Broker issued a token (${took(res)}): ${factsLine(facts)}${lifetime}.`,
    details: compact({ url, status: res.status, claims: facts, expires_in: token.expiresIn, refresh_token: token.refresh ? 'received' : 'none', subject_issuer: s.subjectIssuer }),
  };
}

export function federatedUrl(s: SigninSettings): string {
  const idp = encodeURIComponent(s.idpId ?? '');
  return `${s.identityUrl}/v3/${s.federationPrefix}-FEDERATION/identity_providers/${idp}/protocols/${encodeURIComponent(s.protocol)}/auth`;
}

function subjectToken(res: HttpResponse, what: string): string {
  const token = res.headers['x-subject-token'];
  registerSecret(token);
  if (!token) {
    throw new StepError(
      `${what} answered ${res.status} without the X-Subject-Token header that carries the token.`,
      'A proxy or load balancer in front of the identity service may drop the header; check that it passes X-Subject-Token through (and that the URL is the identity service itself).',
    );
  }
  return token;
}

function tokenBody(res: HttpResponse): Record<string, any> | undefined {
  if (!res.body.trim()) return undefined;
  const body = res.json<Record<string, any>>();
  return body && typeof body.token === 'object' ? body.token : undefined;
}

/** Endpoint 2: the broker token for an unscoped identity-service token. */
export async function federated(env: StepEnv, brokerToken: string): Promise<StepResult<string>> {
  const s = env.settings;
  const url = federatedUrl(s);
  const res = await env.http.request({ method: 'GET', url, headers: { authorization: `Bearer ${brokerToken}` }, credentials: true, signal: env.signal });
  if (res.status !== 201) {
    if (res.status >= 200 && res.status < 300) {
      const what = serverError(res).description;
      throw new StepError(
        `The identity service answered ${res.status} instead of 201 Created at ${url}${what.startsWith('an HTML page') ? ` (${what})` : ''}.`,
        'Check identity_url: it must be the identity service (Keystone) itself, not a login page or proxy in front of it.',
        { url, status: res.status },
      );
    }
    const error = serverError(res);
    const { message, advice } = identityAdvice(error, s);
    throw new StepError(message, advice, { url, status: res.status });
  }
  const token = subjectToken(res, 'The identity service');
  let user: string | undefined;
  let expiresAt: string | undefined;
  try {
    const body = tokenBody(res);
    user = body?.user?.name;
    expiresAt = body?.expires_at;
  } catch {
    // SPEC.md leaves the body of this answer open: the token in the header is what counts.
  }
  const extra = [user && `user ${user}`, expiresAt && `expires_at ${expiresAt}${leftOf(expiresAt)}`].filter(Boolean).join(', ');
  return {
    value: token,
    message: `Identity service issued an unscoped token (${took(res)})${extra ? `: ${extra}` : ''}.`,
    details: compact({ url, status: res.status, user, expires_at: expiresAt }),
  };
}

function leftOf(expiresAt: string): string {
  const t = Date.parse(expiresAt);
  return Number.isNaN(t) ? '' : ` (${formatLeft(Math.round((t - Date.now()) / 1000))})`;
}

export interface Project {
  id: string;
  name?: string;
  description?: string;
}

const FALLBACK_STATUSES = new Set([403, 404, 405]);

async function withFallback(
  env: StepEnv,
  specPath: string,
  standardPath: string,
  send: (url: string) => Promise<HttpResponse>,
  ok: (res: HttpResponse) => boolean,
): Promise<{ res: HttpResponse; warning?: string; path: string }> {
  const base = `${env.settings.identityUrl}/v3`;
  const first = await send(base + specPath);
  if (ok(first) || !FALLBACK_STATUSES.has(first.status)) return { res: first, path: specPath };
  const second = await send(base + standardPath);
  if (!ok(second)) {
    // Report the answer that says the most: the standard path's, unless it merely does not exist there.
    const telling = FALLBACK_STATUSES.has(second.status) && first.status !== 405 ? first : second;
    return { res: telling, path: telling === first ? specPath : standardPath };
  }
  const why = serverError(first);
  return {
    res: second,
    path: standardPath,
    warning:
      `/v3${specPath} (SPEC.md's path) answered ${first.status}${why.description ? ` "${why.description}"` : ''}; ` +
      `the standard Keystone path /v3${standardPath} worked. Real Keystone serves federated users there: nothing to fix unless your platform documents /v3${specPath}.`,
  };
}

/** Endpoint 3, with the standard Keystone path as fallback; chooses the configured project. */
export async function listProjects(env: StepEnv, unscoped: string): Promise<StepResult<{ projects: Project[]; chosen?: Project }>> {
  const s = env.settings;
  const { res, warning, path } = await withFallback(
    env,
    '/projects',
    '/auth/projects',
    (url) => env.http.request({ method: 'GET', url, headers: { 'x-auth-token': unscoped }, credentials: true, signal: env.signal }),
    (r) => r.status === 200,
  );
  const url = `${s.identityUrl}/v3${path}`;
  if (res.status !== 200) {
    const { message, advice } = identityAdvice(serverError(res), s);
    throw new StepError(`GET ${url}: ${message}`, advice, { url, status: res.status });
  }
  const body = res.json<{ projects?: unknown }>();
  if (!Array.isArray(body.projects)) {
    throw new StepError(`GET ${url} answered 200 without a "projects" list.`, 'Check identity_url: it must be the identity service (Keystone v3).', { url });
  }
  const projects = (body.projects as Project[]).filter((p) => p && typeof p.id === 'string');
  const listing = projects.map((p) => `${p.name ?? '?'} (${p.id})`).join(', ');
  const details = { url, status: res.status, projects: projects.map(({ id, name }) => ({ id, name })) };
  if (projects.length === 0) {
    throw new StepError(`GET ${url}: the user may access no project.`, 'Give the federated user (or its group in the mapping) a role on a project.', details);
  }
  const chosen = chooseProject(projects, s.project);
  if (s.project && !chosen) {
    throw new StepError(
      `Project "${s.project}" is not among the ${projects.length} project(s) this user may access: ${listing}.`,
      'Set project to one of these names or ids, or give the user a role on that project.',
      details,
    );
  }
  if (!chosen) {
    return {
      value: { projects },
      message: `${projects.length} projects available (${took(res)}), none chosen: ${listing}.`,
      warning: `No project configured: set project (--project, OS_PROJECT_ID or OS_PROJECT_NAME) to one of them.${warning ? ` ${warning}` : ''}`,
      details,
    };
  }
  return {
    value: { projects, chosen },
    message: `${projects.length} project(s) available (${took(res)} at /v3${path}); ${s.project ? 'chose' : 'the only one,'} ${chosen.name ?? ''} (${chosen.id}).`,
    warning,
    details: { ...details, chosen: { id: chosen.id, name: chosen.name } },
  };
}

export function chooseProject(projects: Project[], wanted: string | undefined): Project | undefined {
  if (!wanted) return projects.length === 1 ? projects[0] : undefined;
  return projects.find((p) => p.id === wanted) ?? projects.find((p) => p.name === wanted);
}

export interface CatalogEndpoint {
  id?: string;
  interface?: string;
  region?: string;
  url: string;
}
export interface CatalogService {
  id?: string;
  name?: string;
  type: string;
  endpoints: CatalogEndpoint[];
}
export interface Scoped {
  token: string;
  project: { id: string; name?: string };
  expiresAt?: string;
  catalog: CatalogService[];
}

/** Endpoint 4, with the standard Keystone path as fallback: the project-scoped token and catalog. */
export async function scope(env: StepEnv, unscoped: string, projectId: string): Promise<StepResult<Scoped>> {
  const s = env.settings;
  const body = JSON.stringify({ auth: { identity: { methods: ['token'], token: { id: unscoped } }, scope: { project: { id: projectId } } } });
  const { res, warning, path } = await withFallback(
    env,
    '/auth/projects',
    '/auth/tokens',
    (url) =>
      env.http.request({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', 'x-auth-token': unscoped },
        body,
        credentials: true,
        signal: env.signal,
      }),
    (r) => r.status === 201,
  );
  const url = `${s.identityUrl}/v3${path}`;
  if (res.status !== 201) {
    if (res.status >= 200 && res.status < 300) {
      throw new StepError(`POST ${url} answered ${res.status} instead of 201 Created.`, 'Check identity_url: it must be the identity service (Keystone v3).', { url });
    }
    const { message, advice } = identityAdvice(serverError(res), s);
    throw new StepError(`POST ${url}: ${message}`, advice, { url, status: res.status });
  }
  const token = subjectToken(res, `POST ${url}`);
  const t = tokenBody(res);
  if (!t) throw new StepError(`POST ${url} answered 201 without a "token" object in the body.`, 'Check identity_url: it must be the identity service (Keystone v3).', { url });
  const catalog: CatalogService[] = Array.isArray(t.catalog) ? t.catalog : [];
  const project = { id: t.project?.id ?? projectId, name: t.project?.name };
  const services = catalog.map((c) => c.type).filter(Boolean);
  const regions = [...new Set(catalog.flatMap((c) => (c.endpoints ?? []).map((e) => e.region)).filter(Boolean))];
  const expiry = t.expires_at ? `, expires_at ${t.expires_at}${leftOf(t.expires_at)}` : '';
  return {
    value: { token, project, expiresAt: t.expires_at, catalog },
    message:
      `Scoped to project ${project.name ?? ''} (${project.id}) (${took(res)} at /v3${path})${expiry}; ` +
      (catalog.length ? `catalog: ${services.join(', ')}${regions.length ? ` in ${regions.join(', ')}` : ''}.` : 'the catalog is empty.'),
    warning: warning ?? (catalog.length ? undefined : 'The scoped token carries an empty catalog: the project has no endpoints, so no cloud API can be found.'),
    details: compact({ url, status: res.status, project, expires_at: t.expires_at, user: t.user?.name, services, regions }),
  };
}

const API_PATHS: Record<string, string> = {
  compute: '/servers',
  network: '/v2.0/networks',
  image: '/v2/images',
  volumev3: '/volumes',
  'block-storage': '/volumes',
  identity: '/v3/auth/projects',
};

export function apiEndpoint(catalog: CatalogService[], type: string): string | undefined {
  const service = catalog.find((c) => c.type === type);
  const endpoint = service?.endpoints?.find((e) => e.interface === 'public') ?? service?.endpoints?.[0];
  return endpoint?.url?.replace(/\/+$/, '');
}

/** One authenticated GET to the configured service's public endpoint, e.g. the compute server list. */
export async function callApi(env: StepEnv, scoped: Scoped): Promise<StepResult<number>> {
  const s = env.settings;
  const base = apiEndpoint(scoped.catalog, s.apiService);
  if (!base) {
    const types = scoped.catalog.map((c) => c.type).join(', ') || 'none';
    throw new StepError(`The catalog has no "${s.apiService}" service with an endpoint (services: ${types}).`, 'Set api_service to a service type of the catalog, or register the service endpoint.');
  }
  const url = base + (API_PATHS[s.apiService] ?? '');
  const res = await env.http.request({ method: 'GET', url, headers: { 'x-auth-token': scoped.token }, credentials: true, signal: env.signal });
  if (res.status < 200 || res.status > 299) {
    const error = serverError(res);
    const advice =
      res.status === 401
        ? `The ${s.apiService} service refused the scoped token: it must validate tokens against the same identity service (check its keystone_authtoken settings).`
        : res.status === 403
          ? 'The token is valid but the role on the project does not allow this call; check the role assignment.'
          : `Check the ${s.apiService} service and its catalog URL.`;
    throw new StepError(`GET ${url} answered ${res.status}${error.description ? `: ${error.description}` : ''}.`, advice, { url, status: res.status });
  }
  let count = '';
  try {
    const body = res.json<Record<string, unknown>>();
    const list = Object.entries(body).find(([, v]) => Array.isArray(v));
    if (list) count = ` (${list[0]}: ${(list[1] as unknown[]).length})`;
  } catch {
    // Any 2xx proves the token works; the body is only a bonus.
  }
  return { value: res.status, message: `GET ${url} answered ${took(res)}${count}: the scoped token works.`, details: { url, status: res.status } };
}
