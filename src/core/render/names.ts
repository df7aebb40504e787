/**
 * Names of what the platform creates that no variable sets. The names a variable sets are that
 * variable's default in the variables table (in the neutral words with `--names spec`). cert-manager's
 * API itself (kinds, fields, the `cert-manager` namespace) is never renamed.
 */
export type { NamingProfile } from '../config/vocabulary.js';
export { NAMING_PROFILES } from '../config/vocabulary.js';
export { CERT_MANAGER_NAMESPACE, PLATFORM_ISSUER, PLATFORM_NAMESPACE } from '../kube/platform.js';
/** The ClusterIssuer that always exists, whatever the issuer type. */
export const SELF_SIGNED_ISSUER = 'self-signed';
/** Wildcard mode: the one Certificate (and its secret) every OpenStack ingress uses. */
export const WILDCARD_CERTIFICATE = 'atmosphere-wildcard';
