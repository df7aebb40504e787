/** What the platform creates in a cluster and what it needs of cert-manager: facts several parts of cloudgate share. */
import { memberOf } from '../records.js';

/** The ClusterIssuer the platform creates and its ingresses name. */
export const PLATFORM_ISSUER = 'atmosphere';

/** The namespace of the OpenStack ingresses, their TLS secrets and the platform's Certificates. */
export const PLATFORM_NAMESPACE = 'openstack';

/** Every namespace whose ingresses the platform makes: the APIs, the identity broker (Keycloak), monitoring. */
export const INGRESS_NAMESPACES = [PLATFORM_NAMESPACE, 'auth-system', 'monitoring'];

/** Where cert-manager runs: its controller, the credential Secrets, the service account of keyless DNS. */
export const CERT_MANAGER_NAMESPACE = 'cert-manager';

/** The oldest cert-manager whose CRDs carry `serviceAccountRef`, which route53 auth kubernetes needs. */
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
  const conditions = memberOf(memberOf(object, 'status'), 'conditions');
  return Array.isArray(conditions) ? conditions.find((c): c is CmCondition => memberOf(c, 'type') === type) : undefined;
}

/** The platform's default ingress class, which the ACME HTTP-01 solver uses. */
export const DEFAULT_INGRESS_CLASS = 'atmosphere';

const isTemplate = (value: string) => value.includes('{{') || value.includes('{%');
const SINGLE_REFERENCE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/**
 * The value Ansible gives the first of `names` the inventory defines (`""` and `null` count as defined,
 * as in Ansible: the default applies only to an absent variable), else `fallback`. A template naming one
 * other variable is followed; `null` says the name cannot be known from the inventory: another template,
 * or an empty, null or non-text value (the deployment cannot create an object without a name).
 */
function literal(vars: Record<string, unknown>, names: string[], fallback: string, depth = 0): string | null {
  for (const name of names) {
    if (!Object.prototype.hasOwnProperty.call(vars, name)) continue;
    const value = vars[name];
    if (typeof value !== 'string' || value === '') return null;
    if (!isTemplate(value)) return value;
    const ref = SINGLE_REFERENCE.exec(value.trim())?.[1];
    if (!ref || depth > 8) return null;
    // A reference along the role's own chain continues it; to another variable, that variable's value.
    if (names.includes(ref)) return literal(vars, names.slice(names.indexOf(ref)), fallback, depth + 1);
    return Object.prototype.hasOwnProperty.call(vars, ref) ? literal(vars, [ref], fallback, depth + 1) : null;
  }
  return fallback;
}

/**
 * The ClusterIssuer's name as the platform's role derives it: `cluster_issuer_name`, else the platform-wide
 * `atmosphere_ingress_cluster_issuer`, else `atmosphere`.
 * `null` when the inventory makes it a template cloudgate cannot follow, or empty.
 */
export function issuerNameOf(vars: Record<string, unknown>): string | null {
  return literal(vars, ['cluster_issuer_name', 'atmosphere_ingress_cluster_issuer'], PLATFORM_ISSUER);
}

/** The ingress class of the HTTP-01 solver, derived like the issuer name (`atmosphere_ingress_class_name`). */
export function ingressClassOf(vars: Record<string, unknown>): string | null {
  return literal(
    vars,
    ['cluster_issuer_acme_http01_ingress_class', 'atmosphere_ingress_class_name'],
    DEFAULT_INGRESS_CLASS,
  );
}
