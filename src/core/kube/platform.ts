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
