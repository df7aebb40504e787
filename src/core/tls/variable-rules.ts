import type { Finding } from '../findings.js';

/**
 * Certificate checks of the inventory's PEM variables (cluster_issuer_ca_certificate + _private_key,
 * cluster_issuer_commercialca_ca, cluster_issuer_commercialca_tpp_ca_bundle).
 * Interface stub: the certificate work (issue 3) implements it; validate.ts already calls it.
 */
export function pemVariableFindings(_values: Record<string, unknown>, _now: Date = new Date()): Finding[] {
  return [];
}
