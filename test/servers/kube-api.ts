/**
 * A small Kubernetes API server on 127.0.0.1 that the real `kubectl` binary talks to.
 *
 * Generic: a registry of resource types (built-ins plus every CustomResourceDefinition stored in the
 * state) drives discovery, and one set of handlers serves get/list/create/replace/patch/delete for all
 * of them. Specials are only what the real API computes: TokenRequest, access reviews (evaluated
 * against the Roles and Bindings in the state), `stringData`, and the OIDC discovery raw paths.
 *
 *   const api = await startKubeApi(new KubeState().add(...objects));
 *   await kubectl(['get', 'secrets', '-A'], { kubeconfig: api.kubeconfig, env: api.env });
 *   api.state.deleted // what kubectl deleted
 *
 * Not served: OpenAPI (`/openapi/v2`, `/openapi/v3`), so `kubectl apply` needs `--validate=false`
 * (client-side dry runs too); watches end at once (deletions here are immediate).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { createTestCA } from '../helpers/pki.js';
import { createSigningKey, serviceAccountClaims, signJwt, type SigningKey } from './jwt.js';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface ResourceType {
  group: string;
  version: string;
  /** Plural, as in the URL. */
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs?: string[];
  subresources?: string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  impersonate?: string;
  body?: unknown;
}

export interface TokenRequestInput {
  namespace: string;
  serviceAccount: string;
  audiences: string[];
  expirationSeconds: number;
}

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

const BUILTIN: ResourceType[] = [
  { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false, shortNames: ['ns'] },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true },
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true, shortNames: ['po'] },
  {
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespaced: true,
    shortNames: ['sa'],
    subresources: ['token'],
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    resource: 'ingresses',
    kind: 'Ingress',
    namespaced: true,
    shortNames: ['ing'],
  },
  { group: '', version: 'v1', resource: 'services', kind: 'Service', namespaced: true, shortNames: ['svc'] },
  {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    shortNames: ['deploy'],
  },
  { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice', namespaced: true },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    resource: 'customresourcedefinitions',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
  },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', kind: 'Role', namespaced: true },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'rolebindings',
    kind: 'RoleBinding',
    namespaced: true,
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterroles',
    kind: 'ClusterRole',
    namespaced: false,
  },
  {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    resource: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    namespaced: false,
  },
  {
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'selfsubjectaccessreviews',
    kind: 'SelfSubjectAccessReview',
    namespaced: false,
    verbs: ['create'],
  },
  {
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'subjectaccessreviews',
    kind: 'SubjectAccessReview',
    namespaced: false,
    verbs: ['create'],
  },
];

/**
 * Kinds cert-manager installs besides the CRDs kept in data/cert-manager-crds: served whenever a
 * cert-manager.io CRD is stored, as they come and go with cert-manager in a real cluster.
 */
const CERT_MANAGER_KINDS: ResourceType[] = [
  {
    group: 'cert-manager.io',
    version: 'v1',
    resource: 'certificaterequests',
    kind: 'CertificateRequest',
    namespaced: true,
    shortNames: ['cr', 'crs'],
    categories: ['cert-manager'],
    subresources: ['status'],
  },
  {
    group: 'acme.cert-manager.io',
    version: 'v1',
    resource: 'orders',
    kind: 'Order',
    namespaced: true,
    categories: ['cert-manager', 'cert-manager-acme'],
    subresources: ['status'],
  },
  {
    group: 'acme.cert-manager.io',
    version: 'v1',
    resource: 'challenges',
    kind: 'Challenge',
    namespaced: true,
    categories: ['cert-manager', 'cert-manager-acme'],
    subresources: ['status'],
  },
];

/** The in-memory object store the emulation serves and the test inspects. */
export class KubeState {
  objects: KubeObject[] = [];
  /** Objects removed through the API (deletion verified on the server's side). */
  deleted: KubeObject[] = [];
  requests: RecordedRequest[] = [];
  /** `iss` of TokenRequest tokens and of the served discovery document. */
  issuer = 'https://kubernetes.default.svc.cluster.local';
  signingKey: SigningKey = createSigningKey();
  /** Audiences of a token requested without any (the API server's --api-audiences); default [issuer]. */
  apiAudiences: string[] = [];
  /** Replaces the default token (signed with `signingKey` for `issuer`). */
  tokenSigner?: (request: TokenRequestInput) => string;
  /** Answer every request with 401 (expired or wrong credentials). */
  rejectAuth = false;
  /** Answer matching requests with 403 Forbidden, as RBAC would (e.g. one DELETE, to test a half-done run). */
  forbid?: (request: { method: string; path: string }) => boolean;
  /** Extra raw paths (`kubectl get --raw`), e.g. a broken discovery document. */
  raw = new Map<string, { status?: number; contentType?: string; body: string }>();
  gitVersion = 'v1.32.4';
  /**
   * cert-manager's webhook, as the API server calls it for cert-manager.io objects (once its CRDs are
   * stored): `serving` fills in a CertificateRequest's requester and refuses one whose request is no CSR;
   * `off` has no webhook configured; `failure` makes the API server's call fail with that error (e.g.
   * 'service "cert-manager-webhook" not found', 'x509: certificate signed by unknown authority').
   */
  certManagerWebhook: 'serving' | 'off' | { failure: string } = 'serving';
  private version = 1;

  add(...objects: KubeObject[]): this {
    for (const o of objects) this.store(structuredClone(o));
    return this;
  }

  get(kind: string, name: string, namespace?: string): KubeObject | undefined {
    return this.objects.find(
      (o) =>
        o.kind === kind && o.metadata.name === name && (namespace === undefined || o.metadata.namespace === namespace),
    );
  }

  list(kind: string, namespace?: string): KubeObject[] {
    return this.objects.filter(
      (o) => o.kind === kind && (namespace === undefined || o.metadata.namespace === namespace),
    );
  }

  remove(object: KubeObject): void {
    this.objects = this.objects.filter((o) => o !== object);
    this.deleted.push(object);
  }

  /** Assigns what the API server assigns (uid, resourceVersion, timestamps, stringData → data). */
  store(object: KubeObject, replacing?: KubeObject): KubeObject {
    const meta = object.metadata;
    meta.uid = replacing?.metadata.uid ?? meta.uid ?? cryptoUid();
    meta.creationTimestamp =
      replacing?.metadata.creationTimestamp ??
      meta.creationTimestamp ??
      new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    meta.resourceVersion = String(++this.version);
    if (object.kind === 'Secret' && object.stringData && typeof object.stringData === 'object') {
      const data = { ...((object.data as Record<string, string>) ?? {}) };
      for (const [k, v] of Object.entries(object.stringData as Record<string, string>))
        data[k] = Buffer.from(String(v)).toString('base64');
      object.data = data;
      delete object.stringData;
    }
    if (replacing) this.objects[this.objects.indexOf(replacing)] = object;
    else this.objects.push(object);
    return object;
  }

  nextVersion(): string {
    return String(this.version);
  }

  /** Built-in resource types plus those of the stored CRDs (served versions only). */
  resourceTypes(): ResourceType[] {
    const custom = this.list('CustomResourceDefinition').flatMap((crd) => {
      const spec = crd.spec as {
        group: string;
        scope: string;
        names: { plural: string; kind: string; shortNames?: string[]; categories?: string[] };
        versions: { name: string; served?: boolean; subresources?: Record<string, unknown> }[];
      };
      return spec.versions
        .filter((v) => v.served !== false)
        .map((v) => ({
          group: spec.group,
          version: v.name,
          resource: spec.names.plural,
          kind: spec.names.kind,
          namespaced: spec.scope === 'Namespaced',
          shortNames: spec.names.shortNames,
          categories: spec.names.categories,
          subresources: Object.keys(v.subresources ?? {}),
        }));
    });
    const certManager = custom.some((t) => t.group === 'cert-manager.io') ? CERT_MANAGER_KINDS : [];
    return [...BUILTIN, ...custom, ...certManager];
  }
}

function cryptoUid(): string {
  const h = randomBytes(16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// ---------------------------------------------------------------------------------------------
// Fixtures

const REPO_ROOT = new URL('../../', import.meta.url);

/** cert-manager's CRDs (data/cert-manager-crds, v1.21.1 schemas) labelled as the chart labels them. */
export function certManagerCrds(version = 'v1.15.5'): KubeObject[] {
  const files = [
    'cert-manager.io_certificates.yaml',
    'cert-manager.io_clusterissuers.yaml',
    'cert-manager.io_issuers.yaml',
  ];
  return files.map((file) => {
    const crd = parseYaml(readFileSync(new URL(`data/cert-manager-crds/${file}`, REPO_ROOT), 'utf8')) as KubeObject;
    crd.metadata.labels = {
      ...crd.metadata.labels,
      'app.kubernetes.io/name': 'cert-manager',
      'app.kubernetes.io/instance': 'cert-manager',
      'app.kubernetes.io/version': version,
    };
    return crd;
  });
}

export function namespace(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

export function serviceAccount(ns: string, name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns } };
}

/** The Role + RoleBinding cert-manager's docs prescribe: its controller may create tokens for `sa`. */
export function tokenCreatorRbac(ns: string, sa: string, controller = 'cert-manager'): KubeObject[] {
  const name = `${sa}-tokenrequest`;
  return [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name, namespace: ns },
      rules: [{ apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: [sa], verbs: ['create'] }],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name: controller, namespace: ns }],
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Server

export interface KubeApi {
  url: string;
  /** Path of a kubeconfig whose current context (`context`) points at this server. */
  kubeconfig: string;
  context: string;
  /** KUBECONFIG and a private discovery cache dir (KUBECACHEDIR), to spread into a child's env. */
  env: Record<string, string>;
  state: KubeState;
  stop(): Promise<void>;
}

export interface KubeApiOptions {
  /** Serve HTTPS with a test CA (default true); false serves plain HTTP. */
  https?: boolean;
  context?: string;
}

export async function startKubeApi(state = new KubeState(), options: KubeApiOptions = {}): Promise<KubeApi> {
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    handle(state, req, res).catch((error: unknown) => send(res, 500, status(500, 'InternalError', String(error))));
  };
  const useHttps = options.https ?? true;
  const ca = useHttps ? createTestCA('kube-api emulation CA') : undefined;
  const pem = ca?.issue(['127.0.0.1', 'localhost']);
  const server = pem ? createHttpsServer({ cert: pem.cert, key: pem.key }, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `${useHttps ? 'https' : 'http'}://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'cloudgate-kube-'));
  const context = options.context ?? 'emulated';
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    toYaml({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'emulated',
          cluster: {
            server: url,
            ...(ca ? { 'certificate-authority-data': Buffer.from(ca.cert).toString('base64') } : {}),
          },
        },
      ],
      users: [{ name: 'admin', user: { token: 'emulated-admin-token' } }],
      contexts: [{ name: context, context: { cluster: 'emulated', user: 'admin' } }],
      'current-context': context,
    }),
    { mode: 0o600 },
  );
  return {
    url,
    kubeconfig,
    context,
    env: { KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache') },
    state,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Route {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
}

async function handle(state: KubeState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulated');
  const query = Object.fromEntries(url.searchParams);
  const raw = await readBody(req);
  const body = raw.length ? parseBody(raw) : undefined;
  const impersonate = header(req, 'impersonate-user');
  state.requests.push({ method: req.method ?? 'GET', path: url.pathname, query, impersonate, body });

  if (state.rejectAuth) return send(res, 401, status(401, 'Unauthorized', 'Unauthorized'));
  if (state.forbid?.({ method: req.method ?? 'GET', path: url.pathname })) {
    return send(
      res,
      403,
      status(
        403,
        'Forbidden',
        `${url.pathname.split('/').slice(-2).join(' "')}" is forbidden: User "emulated" cannot ${(req.method ?? 'GET').toLowerCase()} this resource`,
      ),
    );
  }
  const rawPath = state.raw.get(url.pathname);
  if (rawPath) return sendRaw(res, rawPath.status ?? 200, rawPath.contentType ?? 'application/json', rawPath.body);

  const parts = url.pathname.split('/').filter(Boolean);
  const types = state.resourceTypes();
  const discovery = discoveryDocument(state, types, parts, url.pathname);
  if (discovery) return send(res, 200, discovery);

  const route = resolveRoute(types, parts);
  if (!route)
    return send(
      res,
      404,
      status(404, 'NotFound', `the server could not find the requested resource (${url.pathname})`),
    );
  const method = req.method ?? 'GET';
  const user = requestUser(req);

  if (route.type.kind.endsWith('AccessReview'))
    return send(res, 201, accessReview(state, route.type, body as KubeObject, user));
  if (route.subresource === 'token' && route.type.kind === 'ServiceAccount' && method === 'POST') {
    return tokenRequest(state, route, body as KubeObject, res);
  }
  const existing = route.name ? findObject(state, route) : undefined;
  const dryRun = query.dryRun === 'All';
  if (route.subresource === 'status' && route.type.subresources?.includes('status'))
    return statusSubresource(state, route, existing, method, body, dryRun, res);
  if (route.subresource)
    return send(res, 404, status(404, 'NotFound', `subresource ${route.subresource} is not served`));

  switch (method) {
    case 'GET':
      if (!route.name) return sendList(state, route, query, req, res);
      if (!existing) return notFound(res, route);
      return send(res, 200, existing);
    case 'POST': {
      const object = withRoute(route, withGeneratedName(body as KubeObject));
      const admission = certManagerAdmission(state, route, object, user);
      if (admission) return send(res, admission.code, status(admission.code, admission.reason, admission.message));
      if (findObject(state, { ...route, name: object.metadata.name })) {
        return send(
          res,
          409,
          status(
            409,
            'AlreadyExists',
            `${route.type.resource} "${object.metadata.name}" already exists`,
            route,
            object.metadata.name,
          ),
        );
      }
      return send(res, 201, dryRun ? object : state.store(object));
    }
    case 'PUT':
      if (!existing) return notFound(res, route);
      return send(res, 200, dryRun ? body : state.store(withRoute(route, body as KubeObject), existing));
    case 'PATCH': {
      const contentType = header(req, 'content-type') ?? '';
      if (!existing && !contentType.includes('apply-patch')) return notFound(res, route);
      const patched = mergePatch(
        existing ? structuredClone(existing) : { apiVersion: '', kind: '', metadata: { name: route.name! } },
        body,
      );
      const object = withRoute(route, patched as KubeObject);
      return send(res, existing ? 200 : 201, dryRun ? object : state.store(object, existing));
    }
    case 'DELETE': {
      if (route.name) {
        if (!existing) return notFound(res, route);
        if (!dryRun) state.remove(existing);
        return send(res, 200, existing);
      }
      const victims = selectObjects(state, route, query);
      if (!dryRun) victims.forEach((o) => state.remove(o));
      return send(res, 200, listOf(state, route.type, victims));
    }
    default:
      return send(res, 405, status(405, 'MethodNotAllowed', `method ${method} is not allowed`));
  }
}

/** `metadata.generateName` without a name: the API server appends five random characters. */
function withGeneratedName(object: KubeObject): KubeObject {
  const meta = object?.metadata;
  if (!meta || meta.name || typeof meta.generateName !== 'string') return object;
  return {
    ...object,
    metadata: { ...meta, name: `${meta.generateName}${randomBytes(3).toString('hex').slice(0, 5)}` },
  };
}

/**
 * cert-manager's mutating and validating webhook for a created object, as the API server runs them: the
 * CertificateRequest gets its requester, a request that is no CSR is refused; a failing webhook fails
 * every cert-manager.io object with the API server's own wording.
 */
function certManagerAdmission(
  state: KubeState,
  route: Route,
  object: KubeObject,
  user: User,
): { code: number; reason: string; message: string } | undefined {
  if (route.type.group !== 'cert-manager.io' && route.type.group !== 'acme.cert-manager.io') return undefined;
  const webhook = state.certManagerWebhook;
  if (webhook === 'off') return undefined;
  if (typeof webhook === 'object') {
    return {
      code: 500,
      reason: 'InternalError',
      message: `Internal error occurred: failed calling webhook "webhook.cert-manager.io": failed to call webhook: Post "https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s": ${webhook.failure}`,
    };
  }
  if (route.type.kind !== 'CertificateRequest') return undefined;
  const spec = (object.spec ?? {}) as Record<string, unknown>;
  const csr = typeof spec.request === 'string' ? Buffer.from(spec.request, 'base64').toString('utf8') : '';
  if (!csr.includes('-----BEGIN CERTIFICATE REQUEST-----')) {
    const bytes = [...Buffer.from(typeof spec.request === 'string' ? spec.request : '', 'base64')]
      .slice(0, 8)
      .map((b) => `0x${b.toString(16)}`)
      .join(', ');
    return {
      code: 403,
      reason: 'Forbidden',
      message: `admission webhook "webhook.cert-manager.io" denied the request: spec.request: Invalid value: []byte{${bytes}}: error decoding certificate request PEM block`,
    };
  }
  object.spec = { ...spec, username: user.name, uid: `uid-${user.name}`, groups: user.groups };
  return undefined;
}

/** The status subresource: GET the object, PUT or PATCH only its status (with the resourceVersion check of an update). */
function statusSubresource(
  state: KubeState,
  route: Route,
  existing: KubeObject | undefined,
  method: string,
  body: unknown,
  dryRun: boolean,
  res: ServerResponse,
): void {
  if (!existing) return notFound(res, route);
  if (method === 'GET') return send(res, 200, existing);
  if (method !== 'PUT' && method !== 'PATCH')
    return send(res, 405, status(405, 'MethodNotAllowed', `method ${method} is not allowed`));
  const given = body as KubeObject | undefined;
  const expected = given?.metadata?.resourceVersion;
  if (expected && expected !== existing.metadata.resourceVersion) {
    const what = route.type.group ? `${route.type.resource}.${route.type.group}` : route.type.resource;
    return send(
      res,
      409,
      status(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${what} "${route.name}": the object has been modified; please apply your changes to the latest version and try again`,
        route,
      ),
    );
  }
  const next = structuredClone(existing);
  next.status =
    method === 'PUT' ? given?.status : mergePatch(existing.status, (given as { status?: unknown } | undefined)?.status);
  return send(res, 200, dryRun ? next : state.store(next, existing));
}

function resolveRoute(types: ResourceType[], parts: string[]): Route | undefined {
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) [group, version, rest] = ['', parts[1], parts.slice(2)];
  else if (parts[0] === 'apis' && parts.length >= 4) [group, version, rest] = [parts[1], parts[2], parts.slice(3)];
  else return undefined;
  const find = (resource: string) =>
    types.find((t) => t.group === group && t.version === version && t.resource === resource);
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const type = find(rest[2]);
    return type?.namespaced ? { type, namespace: rest[1], name: rest[3], subresource: rest[4] } : undefined;
  }
  const type = find(rest[0]);
  return type ? { type, name: rest[1], subresource: rest[2] } : undefined;
}

function discoveryDocument(state: KubeState, types: ResourceType[], parts: string[], path: string): unknown {
  const groups = [...new Set(types.filter((t) => t.group).map((t) => t.group))];
  const apiGroup = (g: string) => {
    const versions = [...new Set(types.filter((t) => t.group === g).map((t) => t.version))].map((v) => ({
      groupVersion: `${g}/${v}`,
      version: v,
    }));
    return { name: g, versions, preferredVersion: versions[0] };
  };
  const resourceList = (group: string, version: string) => {
    const matching = types.filter((t) => t.group === group && t.version === version);
    if (matching.length === 0) return undefined;
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources: matching.flatMap((t) => [
        {
          name: t.resource,
          singularName: t.kind.toLowerCase(),
          namespaced: t.namespaced,
          kind: t.kind,
          verbs: t.verbs ?? CRUD,
          ...(t.shortNames ? { shortNames: t.shortNames } : {}),
          ...(t.categories ? { categories: t.categories } : {}),
        },
        ...(t.subresources ?? []).map((sub) => ({
          name: `${t.resource}/${sub}`,
          singularName: '',
          namespaced: t.namespaced,
          kind: sub === 'token' ? 'TokenRequest' : t.kind,
          verbs: sub === 'token' ? ['create'] : ['get', 'patch', 'update'],
          ...(sub === 'token' ? { group: 'authentication.k8s.io', version: 'v1' } : {}),
        })),
      ]),
    };
  };
  if (path === '/version') {
    const [major, minor] = state.gitVersion.replace(/^v/, '').split('.');
    return { major, minor, gitVersion: state.gitVersion, platform: 'linux/amd64' };
  }
  if (path === '/api')
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }],
    };
  if (path === '/apis') return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(apiGroup) };
  if (parts[0] === 'api' && parts.length === 2) return resourceList('', parts[1]);
  if (parts[0] === 'apis' && parts.length === 2 && groups.includes(parts[1]))
    return { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(parts[1]) };
  if (parts[0] === 'apis' && parts.length === 3) return resourceList(parts[1], parts[2]);
  if (path === '/.well-known/openid-configuration') {
    return {
      issuer: state.issuer,
      jwks_uri: 'https://127.0.0.1/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [state.signingKey.alg],
    };
  }
  if (path === '/openid/v1/jwks') return { keys: [state.signingKey.jwk] };
  return undefined;
}

function findObject(state: KubeState, route: Route): KubeObject | undefined {
  return state.objects.find(
    (o) =>
      o.kind === route.type.kind &&
      o.metadata.name === route.name &&
      (!route.type.namespaced || o.metadata.namespace === route.namespace),
  );
}

function withRoute(route: Route, object: KubeObject): KubeObject {
  const copy = structuredClone(object ?? {}) as KubeObject;
  copy.metadata = { ...(copy.metadata ?? {}), name: copy.metadata?.name ?? route.name! };
  if (route.type.namespaced) copy.metadata.namespace = route.namespace ?? copy.metadata.namespace ?? 'default';
  copy.kind ||= route.type.kind;
  copy.apiVersion ||= route.type.group ? `${route.type.group}/${route.type.version}` : route.type.version;
  return copy;
}

function selectObjects(state: KubeState, route: Route, query: Record<string, string>): KubeObject[] {
  const labels = parseSelector(query.labelSelector);
  const fields = parseSelector(query.fieldSelector);
  return state.objects.filter(
    (o) =>
      o.kind === route.type.kind &&
      (!route.namespace || o.metadata.namespace === route.namespace) &&
      labels.every((req) => req(o.metadata.labels ?? {})) &&
      fields.every((req) => req(fieldsOf(o))),
  );
}

function fieldsOf(o: KubeObject): Record<string, string> {
  return {
    'metadata.name': o.metadata.name,
    'metadata.namespace': o.metadata.namespace ?? '',
    ...(typeof o.type === 'string' ? { type: o.type } : {}),
  };
}

type Requirement = (values: Record<string, string>) => boolean;

/** Label/field selectors: `a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x,y)`. */
export function parseSelector(selector: string | undefined): Requirement[] {
  if (!selector) return [];
  const terms = selector.match(/[^,(]+(\([^)]*\))?/g) ?? [];
  return terms.map((raw) => {
    const term = raw.trim();
    let m: RegExpMatchArray | null;
    if ((m = term.match(/^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/))) {
      const [, key, op, list] = m;
      const set = list.split(',').map((s) => s.trim());
      return (v) => (op === 'in' ? set.includes(v[key]) : !set.includes(v[key]));
    }
    if ((m = term.match(/^([^!=]+)!=(.*)$/))) return (v) => v[m![1]] !== m![2];
    if ((m = term.match(/^([^!=]+)==?(.*)$/))) return (v) => v[m![1]] === m![2];
    if (term.startsWith('!')) return (v) => !(term.slice(1) in v);
    return (v) => term in v;
  });
}

function listOf(state: KubeState, type: ResourceType, items: KubeObject[]) {
  return {
    kind: `${type.kind}List`,
    apiVersion: type.group ? `${type.group}/${type.version}` : type.version,
    metadata: { resourceVersion: state.nextVersion() },
    items,
  };
}

function sendList(
  state: KubeState,
  route: Route,
  query: Record<string, string>,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const items = selectObjects(state, route, query);
  if (query.watch === 'true' || query.watch === '1') {
    // Nothing ever changes behind kubectl's back here: an empty watch that ends at once.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end();
    return;
  }
  if ((header(req, 'accept') ?? '').includes('as=Table')) return send(res, 200, table(state, items));
  send(res, 200, listOf(state, route.type, items));
}

function table(state: KubeState, items: KubeObject[]) {
  const age = (o: KubeObject) => {
    const s = Math.max(0, Math.round((Date.now() - Date.parse(o.metadata.creationTimestamp ?? '')) / 1000));
    return Number.isFinite(s) ? `${s}s` : '<unknown>';
  };
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion: state.nextVersion() },
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name', priority: 0 },
      { name: 'Age', type: 'string', format: '', description: 'Age', priority: 0 },
    ],
    rows: items.map((o) => ({
      cells: [o.metadata.name, age(o)],
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}

function tokenRequest(state: KubeState, route: Route, body: KubeObject | undefined, res: ServerResponse): void {
  const sa = findObject(state, route);
  if (!sa) return notFound(res, route);
  const spec = (body?.spec ?? {}) as { audiences?: string[]; expirationSeconds?: number };
  const input: TokenRequestInput = {
    namespace: route.namespace ?? 'default',
    serviceAccount: route.name!,
    audiences: spec.audiences?.length
      ? spec.audiences
      : state.apiAudiences.length
        ? state.apiAudiences
        : [state.issuer],
    expirationSeconds: spec.expirationSeconds ?? 3600,
  };
  const token =
    state.tokenSigner?.(input) ??
    signJwt(
      serviceAccountClaims({
        issuer: state.issuer,
        audiences: input.audiences,
        namespace: input.namespace,
        serviceAccount: input.serviceAccount,
        lifetimeSeconds: input.expirationSeconds,
      }),
      state.signingKey,
    );
  send(res, 201, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    metadata: { name: input.serviceAccount, namespace: input.namespace, creationTimestamp: null },
    spec: { ...spec, audiences: input.audiences, expirationSeconds: input.expirationSeconds },
    status: {
      token,
      expirationTimestamp: new Date(Date.now() + input.expirationSeconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
    },
  });
}

// --- access reviews: RBAC evaluated over the Roles and Bindings in the state ---------------------

interface User {
  name: string;
  groups: string[];
}

const ADMIN: User = { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

function requestUser(req: IncomingMessage): User {
  const name = header(req, 'impersonate-user');
  if (!name) return ADMIN;
  const groups = (req.headersDistinct['impersonate-group'] ?? []).flatMap((g) => g.split(',').map((s) => s.trim()));
  const sa = name.match(/^system:serviceaccount:([^:]+):/);
  if (sa) groups.push('system:serviceaccounts', `system:serviceaccounts:${sa[1]}`);
  return { name, groups: [...groups, 'system:authenticated'] };
}

interface Attributes {
  verb?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  namespace?: string;
}

function accessReview(state: KubeState, type: ResourceType, review: KubeObject, requester: User) {
  const spec = (review?.spec ?? {}) as {
    resourceAttributes?: Attributes;
    nonResourceAttributes?: unknown;
    user?: string;
    groups?: string[];
  };
  const user = type.kind === 'SubjectAccessReview' ? { name: spec.user ?? '', groups: spec.groups ?? [] } : requester;
  const allowed = spec.resourceAttributes
    ? authorize(state, user, spec.resourceAttributes)
    : user.groups.includes('system:masters');
  return {
    ...review,
    apiVersion: 'authorization.k8s.io/v1',
    kind: type.kind,
    status: { allowed, ...(allowed ? { reason: 'allowed by the emulated RBAC' } : {}) },
  };
}

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs?: string[];
}

function authorize(state: KubeState, user: User, attrs: Attributes): boolean {
  if (user.groups.includes('system:masters')) return true;
  const subjectMatches = (s: { kind: string; name: string; namespace?: string }) =>
    (s.kind === 'User' && s.name === user.name) ||
    (s.kind === 'Group' && user.groups.includes(s.name)) ||
    (s.kind === 'ServiceAccount' && `system:serviceaccount:${s.namespace}:${s.name}` === user.name);
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : (attrs.resource ?? '');
  const has = (list: string[] | undefined, value: string) => (list ?? []).includes('*') || (list ?? []).includes(value);
  const ruleMatches = (r: Rule) =>
    has(r.verbs, attrs.verb ?? '') &&
    has(r.apiGroups, attrs.group ?? '') &&
    has(r.resources, resource) &&
    (!r.resourceNames?.length || (attrs.name !== undefined && r.resourceNames.includes(attrs.name)));
  const rulesOf = (ref: { kind: string; name: string }, ns?: string): Rule[] =>
    (state.get(ref.kind, ref.name, ref.kind === 'Role' ? ns : undefined)?.rules as Rule[] | undefined) ?? [];
  const bindings = [
    ...state.list('ClusterRoleBinding').map((b) => ({ b, ns: undefined })),
    ...(attrs.namespace ? state.list('RoleBinding', attrs.namespace).map((b) => ({ b, ns: attrs.namespace })) : []),
  ];
  return bindings.some(({ b, ns }) => {
    const subjects = (b.subjects as { kind: string; name: string; namespace?: string }[] | undefined) ?? [];
    return subjects.some(subjectMatches) && rulesOf(b.roleRef as { kind: string; name: string }, ns).some(ruleMatches);
  });
}

// --- plumbing ------------------------------------------------------------------------------------

/** RFC 7386 JSON merge patch (what strategic merge does for the maps kubectl patches here). */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseBody(raw: Buffer): unknown {
  if (raw.subarray(0, 4).equals(PROTOBUF_MAGIC)) return decodeProtobuf(raw.subarray(4));
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return parseYaml(text);
  }
}

function status(code: number, reason: string, message: string, route?: Route, name?: string) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(route
      ? {
          details: {
            name: name ?? route.name,
            kind: route.type.resource,
            ...(route.type.group ? { group: route.type.group } : {}),
          },
        }
      : {}),
    code,
  };
}

function notFound(res: ServerResponse, route: Route): void {
  const what = route.type.group ? `${route.type.resource}.${route.type.group}` : route.type.resource;
  send(res, 404, status(404, 'NotFound', `${what} "${route.name}" not found`, route));
}

function send(res: ServerResponse, code: number, body: unknown): void {
  sendRaw(res, code, 'application/json', JSON.stringify(body));
}

function sendRaw(res: ServerResponse, code: number, contentType: string, body: string): void {
  res.writeHead(code, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// --- protobuf request bodies ---------------------------------------------------------------------
// kubectl sends built-in kinds (TokenRequest, access reviews) as protobuf; responses may be JSON.
// Decoded here for just the fields those kinds carry (field numbers from k8s.io/api generated.proto).

const PROTOBUF_MAGIC = Buffer.from('k8s\0', 'latin1');

type Fields = Map<number, (bigint | Buffer)[]>;

function wireFields(buf: Buffer): Fields {
  const fields: Fields = new Map();
  let pos = 0;
  const varint = () => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[pos++];
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const [field, wire] = [key >> 3, key & 7];
    let value: bigint | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const len = Number(varint());
      value = buf.subarray(pos, pos + len);
      pos += len;
    } else if (wire === 1) {
      value = buf.subarray(pos, pos + 8);
      pos += 8;
    } else if (wire === 5) {
      value = buf.subarray(pos, pos + 4);
      pos += 4;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
    fields.set(field, [...(fields.get(field) ?? []), value]);
  }
  return fields;
}

const str = (f: Fields, n: number) => (f.get(n)?.[0] as Buffer | undefined)?.toString('utf8');
const strs = (f: Fields, n: number) => (f.get(n) ?? []).map((b) => (b as Buffer).toString('utf8'));
const msg = (f: Fields, n: number) => wireFields((f.get(n)?.[0] as Buffer | undefined) ?? Buffer.alloc(0));

function decodeProtobuf(buf: Buffer): unknown {
  const unknown = wireFields(buf);
  const typeMeta = msg(unknown, 1);
  const [apiVersion, kind] = [str(typeMeta, 1) ?? '', str(typeMeta, 2) ?? ''];
  const object = msg(unknown, 2);
  const spec = msg(object, 2);
  if (kind === 'TokenRequest') {
    const seconds = spec.get(4)?.[0];
    return {
      apiVersion,
      kind,
      spec: {
        audiences: strs(spec, 1),
        ...(typeof seconds === 'bigint' ? { expirationSeconds: Number(seconds) } : {}),
      },
    };
  }
  if (kind === 'SelfSubjectAccessReview' || kind === 'SubjectAccessReview') {
    const ra = spec.get(1) ? msg(spec, 1) : undefined;
    const resourceAttributes = ra && {
      namespace: str(ra, 1),
      verb: str(ra, 2),
      group: str(ra, 3),
      version: str(ra, 4),
      resource: str(ra, 5),
      subresource: str(ra, 6),
      name: str(ra, 7),
    };
    const user = kind === 'SubjectAccessReview' ? { user: str(spec, 3), groups: strs(spec, 4) } : {};
    return { apiVersion, kind, spec: { ...(resourceAttributes ? { resourceAttributes } : {}), ...user } };
  }
  throw new Error(`the emulation cannot decode a protobuf ${kind}`);
}
