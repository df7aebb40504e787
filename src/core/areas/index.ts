import type { CheckProvider, DoctorInput } from '../doctor/input.js';
import type { Check } from '../doctor/types.js';

/**
 * The doctor's areas. Each entry names the groups its checks belong to and loads lazily, so
 * `--only inventory` never loads the HTTP client. A new area is one new entry here.
 */
export const PROVIDERS: { groups: string[]; load: () => Promise<{ provideChecks: CheckProvider }> }[] = [
  { groups: ['inventory'], load: () => import('./inventory/checks.js') },
  { groups: ['signin', 'discovery', 'certificate', 'tls'], load: () => import('../doctor/config-checks.js') },
  { groups: ['certificate'], load: () => import('./certificate/checks.js') },
  { groups: ['signin'], load: () => import('./signin/checks.js') },
  { groups: ['tls'], load: () => import('./tls/checks.js') },
  { groups: ['discovery'], load: () => import('./discovery/checks.js') },
  { groups: ['kube'], load: () => import('./kube/context.js') },
  { groups: ['kube'], load: () => import('./kube/clusteroidc.js') },
  { groups: ['acme'], load: () => import('./acme/checks.js') },
  { groups: ['kube'], load: () => import('./kube/cert-manager.js') },
];

export const GROUPS = [...new Set(PROVIDERS.flatMap((p) => p.groups))];

/** The checks of the given groups (every group when `only` is empty), each area loaded lazily. */
export async function checksOf(input: DoctorInput, only: string[]): Promise<Check[]> {
  const selected = PROVIDERS.filter((p) => only.length === 0 || p.groups.some((g) => only.includes(g)));
  const checks: Check[] = [];
  for (const provider of selected) {
    const { provideChecks } = await provider.load();
    checks.push(...(await provideChecks(input)).filter((c) => only.length === 0 || only.includes(c.group)));
  }
  return checks;
}
