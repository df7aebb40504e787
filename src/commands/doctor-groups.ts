import type { CheckProvider } from '../core/doctor/input.js';

/**
 * The doctor's areas. Each entry names the groups its checks belong to and loads lazily, so
 * `--only inventory` never loads the HTTP client. A new area is one new entry here.
 */
export const PROVIDERS: { groups: string[]; load: () => Promise<{ provideChecks: CheckProvider }> }[] = [
  { groups: ['inventory'], load: () => import('../core/inventory-checks.js') },
  { groups: ['signin', 'discovery', 'certificate', 'tls'], load: () => import('../core/doctor/config-checks.js') },
  { groups: ['certificate'], load: () => import('../core/certificate-checks.js') },
  { groups: ['signin'], load: () => import('../core/signin/checks.js') },
  { groups: ['tls'], load: () => import('../core/served/checks.js') },
  { groups: ['discovery'], load: () => import('../core/discovery/checks.js') },
  { groups: ['kube'], load: () => import('../core/kube-context-check.js') },
  { groups: ['kube'], load: () => import('../core/discovery/kube-checks.js') },
  { groups: ['acme'], load: () => import('../core/acme/checks.js') },
  { groups: ['kube'], load: () => import('../core/kube-cert-checks.js') },
];

export const GROUPS = [...new Set(PROVIDERS.flatMap((p) => p.groups))];
