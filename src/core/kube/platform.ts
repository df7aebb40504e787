/** What the platform creates in a cluster and what it needs of cert-manager: facts several parts of cloudgate share. */

/** The ClusterIssuer the platform creates and its ingresses name. */
export const PLATFORM_ISSUER = 'atmosphere';

/** The namespace of the OpenStack ingresses, their TLS secrets and the platform's Certificates. */
export const PLATFORM_NAMESPACE = 'openstack';

/** Every namespace whose ingresses the platform makes: the APIs, the identity broker (Keycloak), monitoring. */
export const INGRESS_NAMESPACES = [PLATFORM_NAMESPACE, 'auth-system', 'monitoring'];

/** Where cert-manager runs: its controller, the credential Secrets, the service account of keyless DNS. */
export const CERT_MANAGER_NAMESPACE = 'cert-manager';

/** The oldest cert-manager whose CRDs carry `serviceAccountRef`, which clouddnsb auth clusteroidc needs. */
export const MIN_CERT_MANAGER = '1.15.0';

/** One entry of a cert-manager object's `status.conditions`, as the API returns it (unchecked). */
export interface CmCondition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
}

/** The condition of `type` (`Ready`, `Denied`, ...) of a cert-manager object, when it has one. */
export function conditionOf(object: unknown, type: string): CmCondition | undefined {
  const conditions = (object as { status?: { conditions?: unknown } } | undefined)?.status?.conditions;
  return Array.isArray(conditions) ? (conditions as CmCondition[]).find((c) => c?.type === type) : undefined;
}

/** The platform's default ingress class, which the ACME HTTP-01 solver uses. */
export const PLATFORM_INGRESS_CLASS = 'atmosphere';

const isTemplate = (value: string) => value.includes('{{') || value.includes('{%');

/**
 * The first of `names` the inventory sets to a literal string. A Jinja template (`{{ }}`) is resolved only
 * at deploy time: `null` says the value cannot be known from the inventory.
 */
function literal(vars: Record<string, unknown>, names: string[], fallback: string): string | null {
  for (const name of names) {
    if (!(name in vars)) continue;
    const value = vars[name];
    if (typeof value !== 'string' || value === '') return fallback;
    return isTemplate(value) ? null : value;
  }
  return fallback;
}

/**
 * The ClusterIssuer's name as the platform's role derives it: `cluster_issuer_name`, else the platform-wide
 * `atmosphere_ingress_cluster_issuer` (neutral: `platform_ingress_cluster_issuer`), else `atmosphere`.
 * `null` when the inventory makes it a template.
 */
export function issuerNameOf(vars: Record<string, unknown>): string | null {
  return literal(vars, ['cluster_issuer_name', 'atmosphere_ingress_cluster_issuer', 'platform_ingress_cluster_issuer'], PLATFORM_ISSUER);
}

/** The ingress class of the HTTP-01 solver, derived like the issuer name (`atmosphere_ingress_class_name`). */
export function ingressClassOf(vars: Record<string, unknown>): string | null {
  return literal(vars, ['cluster_issuer_acme_http01_ingress_class', 'atmosphere_ingress_class_name', 'platform_ingress_class_name'], PLATFORM_INGRESS_CLASS);
}
