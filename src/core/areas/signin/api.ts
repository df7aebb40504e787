/** The last step: one authenticated call to a cloud API found in the scoped token's catalog. */
import { serverError, StepError, unstop } from './advice.js';
import type { CatalogService, Scoped } from './identity.js';
import { took, type StepEnv, type StepResult } from './step.js';
import { joinCapped } from '../../bounded.js';
import { API } from './messages/steps.js';

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
export function apiEndpoint(
  catalog: CatalogService[],
  type: string,
  want: { interface?: string; region?: string } = {},
): string | undefined {
  const service = catalog.find((c) => c.type === type);
  const wanted = (want.interface ?? 'public').replace(/URL$/, '');
  const inRegion = (service?.endpoints ?? []).filter(
    (e) => !want.region || e.region === want.region || e.region_id === want.region,
  );
  const endpoint =
    inRegion.find((e) => e.interface === wanted) ?? (want.region || want.interface ? undefined : inRegion[0]);
  return endpoint?.url?.replace(/\/+$/, '');
}

/** One authenticated GET to the configured service's public endpoint, e.g. the compute server list. */
export async function callApi(env: StepEnv, scoped: Scoped): Promise<StepResult<number>> {
  const s = env.settings;
  const base = apiEndpoint(scoped.catalog, s.apiService, { interface: s.interface, region: s.region });
  if (!base) {
    const types = joinCapped(scoped.catalog.map((c) => c.type)) || 'none';
    const where = [s.interface && `interface ${s.interface}`, s.region && `region ${s.region}`]
      .filter(Boolean)
      .join(', ');
    throw new StepError(
      API.noService(s.apiService, where, types),
      where ? API.setRegionAndInterface : API.setApiService,
    );
  }
  const url = base + (API_PATHS[s.apiService] ?? '');
  const res = await env.http.request({
    method: 'GET',
    url,
    headers: { 'x-auth-token': scoped.token },
    credentials: true,
    signal: env.signal,
  });
  if (res.status < 200 || res.status > 299) {
    const error = serverError(res);
    const advice =
      res.status === 401
        ? API.tokenNotValidated(s.apiService)
        : res.status === 403
          ? API.roleForbids
          : API.checkService(s.apiService);
    throw new StepError(API.answered(url, res.status, error.description ? unstop(error.description) : ''), advice, {
      url,
      status: res.status,
    });
  }
  let count = '';
  try {
    const body = res.json<Record<string, unknown>>();
    const list = Object.entries(body).find((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
    if (list) count = ` (${list[0]}: ${list[1].length})`;
  } catch {
    // Any 2xx proves the token works; the body is only a bonus.
  }
  return { value: res.status, message: API.works(url, took(res), count), facts: { url, status: res.status } };
}
