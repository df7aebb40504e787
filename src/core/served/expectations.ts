/** What the inventory says should be served: the issuer type, wildcard or individual certificates. */
export interface ServedExpectations {
  issuerType?: string;
  wildcardDomain?: string;
  /** `cluster_issuer_acme_server`; unset = a public ACME CA. */
  acmeServer?: string;
  /** `cloud_helm_ingress_secret_name` (a supplied wildcard). */
  suppliedSecret?: string;
  /** Where these came from, for messages. */
  inventory?: string;
}

export function expectationsFrom(values: Record<string, unknown>, inventory?: string): ServedExpectations {
  const text = (name: string) => {
    const v = values[name];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  return {
    issuerType: text('cluster_issuer_type') ?? (Object.keys(values).length ? 'acme' : undefined),
    wildcardDomain: text('cloud_helm_ingress_wildcard_domain')?.replace(/^\*\./, ''),
    acmeServer: text('cluster_issuer_acme_server'),
    suppliedSecret: text('cloud_helm_ingress_secret_name'),
    inventory,
  };
}

/** A supplied wildcard (issuer none + secret name) or an automatic one (wildcard domain set). */
export function expectsWildcard(e: ServedExpectations): boolean {
  return Boolean(e.wildcardDomain) || (e.issuerType === 'none' && Boolean(e.suppliedSecret));
}
