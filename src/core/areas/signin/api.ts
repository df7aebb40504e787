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

/**
 * The URL of a service of the catalog, as the OpenStack client picks it: the interface asked for (public by
 * default), in the region asked for when one is given.
 */
export function apiEndpoint(catalog: CatalogService[], type: string, want: { interface?: string; region?: string } = {}): string | undefined {
  const service = catalog.find((c) => c.type === type);
  const wanted = (want.interface ?? 'public').replace(/URL$/, '');
  const inRegion = (service?.endpoints ?? []).filter((e) => !want.region || e.region === want.region || e.region_id === want.region);
  const endpoint = inRegion.find((e) => e.interface === wanted) ?? (want.region || want.interface ? undefined : inRegion[0]);
  return endpoint?.url?.replace(/\/+$/, '');
}

/** One authenticated GET to the configured service's public endpoint, e.g. the compute server list. */
export async function callApi(env: StepEnv, scoped: Scoped): Promise<StepResult<number>> {
  const s = env.settings;
  const base = apiEndpoint(scoped.catalog, s.apiService, { interface: s.interface, region: s.region });
  if (!base) {
    const types = joinCapped(scoped.catalog.map((c) => c.type)) || 'none';
    const where = [s.interface && `interface ${s.interface}`, s.region && `region ${s.region}`].filter(Boolean).join(', ');
    throw new StepError(`The catalog has no "${s.apiService}" service with an endpoint${where ? ` (${where})` : ''} (services: ${types}).`,
      where ? 'Set region and interface (region_name and interface in clouds.yaml) to ones the catalog has, or register the endpoint.'
        : 'Set api_service to a service type of the catalog, or register the service endpoint.');
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
    const list = Object.entries(body).find((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
    if (list) count = ` (${list[0]}: ${list[1].length})`;
  } catch {
    // Any 2xx proves the token works; the body is only a bonus.
  }
  return { value: res.status, message: `GET ${url} answered ${took(res)}${count}: the scoped token works.`, facts: { url, status: res.status } };
}
