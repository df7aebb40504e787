/**
 * The identity service side of the chain: the federated sign-in, the project list and the scoped token,
 * at the platform's documented paths or the standard Keystone ones, whichever the service serves.
 */
import type { SigninFacts } from './facts.js';
import type { HttpResponse } from '../../net/http.js';
import { registerSecret } from '../../secrets.js';
import { identityAdvice, serverError, StepError, type ServerError } from './advice.js';
import { tokenFacts } from './token-facts.js';
import type { SigninSettings } from './settings.js';
import { compact, leftOf, took, type StepEnv, type StepResult } from './step.js';
import { joinCapped } from '../../bounded.js';
import { closest } from '../../closest.js';
import { asRecord, memberOf, textOf, isRecord } from '../../records.js';
import { KEYSTONE } from './messages/steps.js';

export function federatedUrl(s: SigninSettings): string {
  const idp = encodeURIComponent(s.idpId ?? '');
  return `${s.identityUrl}/v3/${s.federationPrefix}-FEDERATION/identity_providers/${idp}/protocols/${encodeURIComponent(s.protocol)}/auth`;
}

function subjectToken(res: HttpResponse, what: string): string {
  const token = res.headers['x-subject-token'];
  registerSecret(token);
  if (!token) {
    throw new StepError(KEYSTONE.noSubjectTokenHeader(what, res.status), KEYSTONE.passSubjectTokenHeader);
  }
  return token;
}

/** The `token` object of a Keystone token answer, as far as cloudgate reads it (each field checked). */
interface TokenBody {
  user?: { name?: string };
  expires_at?: string;
  project?: { id?: string; name?: string; domain?: { id?: string; name?: string } };
  catalog?: unknown;
}

function domainOf(value: unknown): { domain?: { id?: string; name?: string } } {
  const domain = asRecord(value);
  return domain ? { domain: { id: textOf(domain.id), name: textOf(domain.name) } } : {};
}

function tokenBody(res: HttpResponse): TokenBody | undefined {
  if (!res.body.trim()) return undefined;
  const token = asRecord(asRecord(res.json<unknown>())?.token);
  if (!token) return undefined;
  const user = asRecord(token.user);
  const project = asRecord(token.project);
  return {
    ...(user ? { user: { name: textOf(user.name) } } : {}),
    expires_at: textOf(token.expires_at),
    ...(project
      ? { project: { id: textOf(project.id), name: textOf(project.name), ...domainOf(project.domain) } }
      : {}),
    catalog: token.catalog,
  };
}

/** The federated sign-in's request at `url` (a protocol's auth path), the broker token as bearer. */
function federatedRequest(env: StepEnv, url: string, brokerToken: string) {
  return env.http.request({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${brokerToken}` },
    credentials: true,
    signal: env.signal,
  });
}

/** The federated sign-in: the broker token for an unscoped identity-service token. */
export async function federated(env: StepEnv, brokerToken: string): Promise<StepResult<string>> {
  const s = env.settings;
  const url = federatedUrl(s);
  const res = await federatedRequest(env, url, brokerToken);
  if (res.status !== 201) {
    if (res.status >= 200 && res.status < 300) {
      const what = serverError(res).description;
      throw new StepError(KEYSTONE.notCreated(res.status, url, what), KEYSTONE.notALoginPage, {
        url,
        status: res.status,
      });
    }
    const error = serverError(res);
    const sent = tokenFacts(brokerToken, env.clock.now().getTime());
    const proven = await provenCause(env, error, brokerToken);
    const { message, advice } = identityAdvice(error, s, { step: 'federated', token: sent, ...proven });
    throw new StepError(message, advice, compact({ url, status: res.status, token_issuer: sent?.issuer, ...proven }));
  }
  const token = subjectToken(res, 'The identity service');
  let user: string | undefined;
  let expiresAt: string | undefined;
  try {
    const body = tokenBody(res);
    user = body?.user?.name;
    expiresAt = body?.expires_at;
  } catch {
    // The body of this answer is not defined anywhere we rely on: the token in the header is what counts.
  }
  const extra = [user && KEYSTONE.user(user), expiresAt && KEYSTONE.expiresAt(expiresAt, leftOf(expiresAt, env.clock))]
    .filter(Boolean)
    .join(', ');
  return {
    value: token,
    message: KEYSTONE.unscoped(took(res), extra),
    facts: compact({ url, status: res.status, user, expires_at: expiresAt }),
    expiresAt,
  };
}

/** Sign-in methods of Keystone that are no federation protocol. */
const CORE_METHODS = new Set([
  'password',
  'token',
  'application_credential',
  'totp',
  'oauth1',
  'oauth2',
  'external',
  'kerberos',
]);

/**
 * What one more request proves about a refused federated sign-in: a protocol that Keystone lists among
 * its methods and that signs the same token in (a typo in protocol), or, for an identity URL ending in a
 * version other than /v3, where this Keystone serves v3 (its version document).
 */
async function provenCause(
  env: StepEnv,
  e: ServerError,
  brokerToken: string,
): Promise<{ working_protocol?: string; v3_url?: string }> {
  const s = env.settings;
  if (/unsupported method/i.test(e.description) && e.methods) {
    for (const method of e.methods.filter((m) => !CORE_METHODS.has(m) && m !== s.protocol).slice(0, 3)) {
      const url = federatedUrl({ ...s, protocol: method });
      try {
        const res = await federatedRequest(env, url, brokerToken);
        registerSecret(res.headers['x-subject-token']);
        if (res.status === 201) return { working_protocol: method };
      } catch {
        // Nothing proven by this one.
      }
    }
  }
  if (e.status === 404 && s.identityUrl && /\/v\d+(\.\d+)?$/.test(s.identityUrl)) {
    const v3 = await v3Url(env, new URL(s.identityUrl).origin);
    if (v3) return { v3_url: v3 };
  }
  return {};
}

/** Where the Keystone at `origin` serves v3, from its version document (`GET /`, 300 Multiple Choices). */
async function v3Url(env: StepEnv, origin: string): Promise<string | undefined> {
  try {
    const res = await env.http.request({ url: `${origin}/`, signal: env.signal });
    const body = asRecord(res.json<unknown>());
    const values = asRecord(body?.versions)?.values;
    const versions = Array.isArray(values) ? values : body?.version ? [body.version] : [];
    for (const v of versions) {
      const version = asRecord(v);
      if (!textOf(version?.id)?.startsWith('v3')) continue;
      const self = (Array.isArray(version?.links) ? version.links : []).map(asRecord).find((l) => l?.rel === 'self');
      const href = textOf(self?.href);
      if (href) return href.replace(/\/+$/, '');
    }
  } catch {
    // No version document: nothing proven.
  }
  return undefined;
}

export interface Project {
  id: string;
  name?: string;
  domain_id?: string;
  description?: string;
}

/**
 * Two sets of paths for listing projects and scoping: the ones the platform's own documentation gives
 * (`platform`) and the standard Keystone API (`keystone`), which is what real Keystone serves to a
 * federated user (it answers the platform's paths with 403 and 405). Either is healthy.
 */
export type IdentityFlavour = 'platform' | 'keystone';
const PATHS: Record<'projects' | 'scope', Record<IdentityFlavour, string>> = {
  projects: { platform: '/projects', keystone: '/auth/projects' },
  scope: { platform: '/auth/projects', keystone: '/auth/tokens' },
};
/** Answers that mean "not here": the other flavour's path is tried. */
const FALLBACK_STATUSES = new Set([403, 404, 405]);

/** A path that was tried first and did not serve, kept for the message and the facts. */
export interface TriedPath {
  path: string;
  status: number;
  said?: string;
}

interface Served {
  res: HttpResponse;
  path: string;
  flavour: IdentityFlavour;
  tried?: TriedPath;
}

/**
 * Sends to the flavour the identity service is known to speak (the platform's paths when unknown), and
 * to the other one when that answers 403, 404 or 405; remembers the flavour that worked, so the next
 * step (and, through the cache of `cloudgate token`, the next run) costs one request.
 */
async function firstServed(
  env: StepEnv,
  step: 'projects' | 'scope',
  send: (url: string) => Promise<HttpResponse>,
  ok: (res: HttpResponse) => boolean,
): Promise<Served> {
  const base = `${env.settings.identityUrl}/v3`;
  const order: [IdentityFlavour, IdentityFlavour] =
    env.flavour?.value === 'keystone' ? ['keystone', 'platform'] : ['platform', 'keystone'];
  const [firstFlavour, secondFlavour] = order;
  const first = await send(base + PATHS[step][firstFlavour]);
  if (ok(first) || !FALLBACK_STATUSES.has(first.status)) {
    if (ok(first) && env.flavour) env.flavour.value = firstFlavour;
    return { res: first, path: PATHS[step][firstFlavour], flavour: firstFlavour };
  }
  const second = await send(base + PATHS[step][secondFlavour]);
  if (ok(second)) {
    if (env.flavour) env.flavour.value = secondFlavour;
    const said = serverError(first).description || undefined;
    const tried: TriedPath = {
      path: `/v3${PATHS[step][firstFlavour]}`,
      status: first.status,
      ...(said ? { said } : {}),
    };
    return { res: second, path: PATHS[step][secondFlavour], flavour: secondFlavour, tried };
  }
  // Report the answer that says the most: the standard path's, unless it merely does not exist there.
  const [platform, keystone] = firstFlavour === 'platform' ? [first, second] : [second, first];
  const telling = FALLBACK_STATUSES.has(keystone.status) && platform.status !== 405 ? platform : keystone;
  const flavour: IdentityFlavour = telling === platform ? 'platform' : 'keystone';
  return { res: telling, path: PATHS[step][flavour], flavour };
}

/** " at /v3/auth/projects, the standard Keystone path (/v3/projects answered 403)": which path served. */
function servedAt(served: Served): string {
  const which = served.flavour === 'keystone' ? ', the standard Keystone path' : '';
  return ` at /v3${served.path}${which}${served.tried ? ` (${served.tried.path} answered ${served.tried.status})` : ''}`;
}

function pathFacts(served: Served): SigninFacts {
  return compact({ path: `/v3${served.path}`, flavour: served.flavour, tried: served.tried });
}

/** The user's projects (either flavour of path); chooses the configured project. */
export async function listProjects(
  env: StepEnv,
  unscoped: string,
): Promise<StepResult<{ projects: Project[]; chosen?: Project }>> {
  const s = env.settings;
  const served = await firstServed(
    env,
    'projects',
    (url) =>
      env.http.request({
        method: 'GET',
        url,
        headers: { 'x-auth-token': unscoped },
        credentials: true,
        signal: env.signal,
      }),
    (r) => r.status === 200,
  );
  const { res, path } = served;
  const url = `${s.identityUrl}/v3${path}`;
  if (res.status !== 200) {
    const { message, advice } = identityAdvice(serverError(res), s, { step: 'projects' });
    throw new StepError(KEYSTONE.atUrl('GET', url, message), advice, { url, status: res.status });
  }
  const body = res.json<{ projects?: unknown }>();
  if (!Array.isArray(body.projects)) {
    throw new StepError(KEYSTONE.noProjectsList(url), KEYSTONE.checkKeystoneV3, { url });
  }
  const projects = body.projects.filter((p): p is Project => isRecord(p) && typeof p.id === 'string');
  const listing = joinCapped(projects.map((p) => `${p.name ?? '?'} (${p.id})`));
  const listed: SigninFacts = {
    url,
    status: res.status,
    ...pathFacts(served),
    projects: projects.map(({ id, name, domain_id }) => ({
      id,
      ...(name ? { name } : {}),
      ...(domain_id ? { domain_id } : {}),
    })),
  };
  if (projects.length === 0) {
    throw new StepError(KEYSTONE.noProject(url), KEYSTONE.grantAProject, listed);
  }
  const choice = chooseProject(projects, s);
  const chosen = choice.chosen;
  if (s.project && choice.named && !chosen) {
    // Named with its domain's name: the list gives domain ids only, so the scope (by name and domain) decides.
    return {
      value: { projects },
      message: KEYSTONE.projectAmongThem(projects.length, took(res), servedAt(served), s.project, s.projectDomain),
      facts: { ...listed, candidates: choice.named.map(({ id, domain_id }) => ({ id, domain_id })) },
    };
  }
  if (s.project && !chosen) {
    const guess = closest(
      s.project,
      projects.flatMap((p) => (p.name ? [p.name] : [])),
    );
    const ambiguous = choice.ambiguous
      ? KEYSTONE.inDomains(choice.ambiguous.length, choice.ambiguous.map((p) => p.domain_id ?? '?').join(', '))
      : '';
    throw new StepError(
      choice.ambiguous
        ? KEYSTONE.ambiguous(s.project, listing, ambiguous)
        : KEYSTONE.notAmong(s.project, projects.length, listing),
      choice.ambiguous ? KEYSTONE.nameProjectDomain : KEYSTONE.chooseAmong(guess),
      { ...listed, ...(guess ? { did_you_mean: guess } : {}) },
    );
  }
  if (!chosen) {
    return {
      value: { projects },
      message: KEYSTONE.noneChosen(projects.length, took(res), servedAt(served), listing),
      warning: KEYSTONE.chooseProject,
      facts: listed,
    };
  }
  return {
    value: { projects, chosen },
    message: KEYSTONE.chosen(
      projects.length,
      took(res),
      servedAt(served),
      Boolean(s.project),
      chosen.name ?? '',
      chosen.id,
    ),
    facts: { ...listed, chosen: { id: chosen.id, name: chosen.name } },
  };
}

export interface ProjectChoice {
  chosen?: Project;
  /** Projects of the configured name, when the configured domain is a name the list cannot tell (domain ids only). */
  named?: Project[];
  /** A name without a domain that several projects carry. */
  ambiguous?: Project[];
}

/**
 * The configured project among the listed ones. The list gives each project's domain id only: a
 * domain named by its name cannot be matched here (the scope, by name and domain, decides), so the
 * projects of that name are returned as candidates.
 */
export function chooseProject(
  projects: Project[],
  s: Pick<SigninSettings, 'project' | 'projectBy' | 'projectDomain' | 'projectDomainBy'>,
): ProjectChoice {
  const wanted = s.project;
  if (!wanted) return projects.length === 1 ? { chosen: projects[0] } : {};
  const byId = s.projectBy === 'name' ? undefined : projects.find((p) => p.id === wanted);
  if (byId || s.projectBy === 'id') return byId ? { chosen: byId } : {};
  const named = projects.filter((p) => p.name === wanted);
  const domain = s.projectDomain;
  if (!domain) return named.length > 1 ? { ambiguous: named } : named.length === 1 ? { chosen: named[0] } : {};
  const inDomain = named.filter(
    (p) => p.domain_id === domain || (p.domain_id === 'default' && domain.toLowerCase() === 'default'),
  );
  if (inDomain.length) return { chosen: inDomain[0] };
  return s.projectDomainBy !== 'id' && named.length ? { named } : {};
}

export interface CatalogEndpoint {
  id?: string;
  interface?: string;
  region?: string;
  region_id?: string;
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
  project: { id: string; name?: string; domain?: { id?: string; name?: string } };
  expiresAt?: string;
  catalog: CatalogService[];
}

/** What a token is scoped to, as keystoneauth names it: a project id, or a project name with its domain's id or name. */
export type ScopeTarget = { id: string } | { name: string; domain: { id: string } | { name: string } };

/** The project-scoped token and catalog (either flavour of path). */
export async function scope(env: StepEnv, unscoped: string, target: ScopeTarget): Promise<StepResult<Scoped>> {
  const s = env.settings;
  const project = 'id' in target ? { id: target.id } : { name: target.name, domain: target.domain };
  const body = JSON.stringify({
    auth: { identity: { methods: ['token'], token: { id: unscoped } }, scope: { project } },
  });
  const served = await firstServed(
    env,
    'scope',
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
  const { res, path } = served;
  const url = `${s.identityUrl}/v3${path}`;
  if (res.status !== 201) {
    if (res.status >= 200 && res.status < 300) {
      throw new StepError(KEYSTONE.scopeNotCreated(url, res.status), KEYSTONE.checkKeystoneV3, { url });
    }
    const error = serverError(res);
    const { message, advice } = identityAdvice(error, s, { step: 'scope' });
    throw new StepError(KEYSTONE.atUrl('POST', url, message), advice, {
      url,
      status: res.status,
      ...(error.description ? { said: error.description } : {}),
    });
  }
  const token = subjectToken(res, `POST ${url}`);
  const t = tokenBody(res);
  if (!t) throw new StepError(KEYSTONE.noTokenObject(url), KEYSTONE.checkKeystoneV3, { url });
  // Each service's fields are read with fallbacks below; a malformed entry is dropped.
  const catalog = (Array.isArray(t.catalog) ? t.catalog : []).filter(
    (c): c is CatalogService => typeof memberOf(c, 'type') === 'string',
  );
  const scopedTo = {
    id: t.project?.id ?? ('id' in target ? target.id : ''),
    name: t.project?.name ?? ('name' in target ? target.name : undefined),
    ...(t.project?.domain ? { domain: t.project.domain } : {}),
  };
  const services = catalog.map((c) => c.type).filter(Boolean);
  const regions = [...new Set(catalog.flatMap((c) => (c.endpoints ?? []).map((e) => e.region)).filter(Boolean))];
  const expiry = t.expires_at ? `, expires_at ${t.expires_at}${leftOf(t.expires_at, env.clock)}` : '';
  return {
    value: { token, project: scopedTo, expiresAt: t.expires_at, catalog },
    message:
      `Scoped to project ${scopedTo.name ?? ''} (${scopedTo.id})${scopedTo.domain?.name ? ` in domain ${scopedTo.domain.name}` : ''} (${took(res)}${servedAt(served)})${expiry}; ` +
      (catalog.length
        ? `catalog: ${joinCapped(services)}${regions.length ? ` in ${joinCapped(regions.map(String))}` : ''}.`
        : 'the catalog is empty.'),
    warning: catalog.length
      ? undefined
      : 'The scoped token carries an empty catalog: the project has no endpoints, so no cloud API can be found.',
    facts: compact({
      url,
      status: res.status,
      ...pathFacts(served),
      project: { id: scopedTo.id, name: scopedTo.name },
      domain: scopedTo.domain,
      expires_at: t.expires_at,
      user: t.user?.name,
      services,
      regions,
    }),
    expiresAt: t.expires_at,
  };
}
