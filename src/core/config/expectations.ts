/** What the inventory says should be served: the issuer type, wildcard or individual certificates. */
export interface ServedExpectations {
  issuerType?: string;
  wildcardDomain?: string;
  /** `cluster_issuer_acme_server`; unset = a public ACME CA. */
  acmeServer?: string;
  /** `openstack_helm_ingress_secret_name` (a supplied wildcard). */
  suppliedSecret?: string;
  /** Where these came from, for messages. */
  inventory?: string;
  /** Hosts of the identity-broker and monitoring ingresses the inventory names (see servedIndividually). */
  individualHosts?: string[];
}

/**
 * The platform's identity broker (Keycloak, `keycloak_host`) and monitoring ingresses (Grafana,
 * Alertmanager, Prometheus: `kube_prometheus_stack_<name>_host`) live outside the `openstack`
 * namespace and keep their cluster-issuer annotation and their own certificates when the API
 * endpoints switch to an automatic wildcard. An individual certificate there is the platform
 * working as designed, not a stale secret.
 */
const INDIVIDUAL_HOST_VARIABLE = /^(keycloak_host|kube_prometheus_stack_(grafana|alertmanager|prometheus)_host)$/;
const INDIVIDUAL_HOST_LABEL = /^(keycloak|grafana|alertmanager|prometheus)$/i;

/**
 * Whether the platform serves this host with its own certificate even in (automatic) wildcard mode:
 * named by one of those variables, or called by the first label those ingresses conventionally use.
 * A supplied wildcard (issuer none) is different: there is no issuer for them, they use the supplied secret too.
 */
export function servedIndividually(endpoint: { host: string; origin?: string }, e: ServedExpectations): boolean {
  if (e.issuerType === 'none') return false;
  const host = endpoint.host.toLowerCase();
  return (
    INDIVIDUAL_HOST_VARIABLE.test(endpoint.origin ?? '') ||
    (e.individualHosts ?? []).includes(host) ||
    INDIVIDUAL_HOST_LABEL.test(host.split('.')[0] ?? '')
  );
}

export function expectationsFrom(values: Record<string, unknown>, inventory?: string): ServedExpectations {
  const text = (name: string) => {
    const v = values[name];
    return typeof v === 'string' && v.trim() ? v.trim() : undefined;
  };
  return {
    issuerType: text('cluster_issuer_type') ?? (Object.keys(values).length ? 'acme' : undefined),
    wildcardDomain: text('openstack_helm_ingress_wildcard_domain')?.replace(/^\*\./, ''),
    acmeServer: text('cluster_issuer_acme_server'),
    suppliedSecret: text('openstack_helm_ingress_secret_name'),
    inventory,
    individualHosts: Object.keys(values)
      .filter((name) => INDIVIDUAL_HOST_VARIABLE.test(name))
      .map((name) => text(name)?.toLowerCase())
      .filter((host): host is string => Boolean(host)),
  };
}

/** A supplied wildcard (issuer none + secret name) or an automatic one (wildcard domain set). */
export function expectsWildcard(e: ServedExpectations): boolean {
  return Boolean(e.wildcardDomain) || (e.issuerType === 'none' && Boolean(e.suppliedSecret));
}
