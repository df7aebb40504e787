/** The last step: one authenticated call to a cloud API found in the scoped token's catalog. */
import { serverError, StepError, unstop } from './advice.js';
import type { CatalogService, Scoped } from './identity.js';
import { took, type StepEnv, type StepResult } from './step.js';
import { joinCapped } from '../../bounded.js';

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
    const types = joinCapped(scoped.catalog.map((c) => c.type)) || 'none';
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
    throw new StepError(`GET ${url} answered ${res.status}${error.description ? `: ${unstop(error.description)}` : ''}.`, advice, { url, status: res.status });
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
