/**
 * The acme group's texts in one place: its checks' titles and why a check does not apply to the
 * inventory. The words of its results are in messages/ by topic: the ACME directory (directory.ts), the
 * rfc2136 name server and its updates (nameserver.ts), and what each DNS-01 provider's API answered
 * (providers.ts). Each is named after what it says; the checks decide which to say.
 */
export const TITLES = {
  directory: 'ACME server directory',
  rfc2136: 'RFC 2136 name server accepts the TSIG key',
  dnsCredentials: 'DNS-01 provider credentials',
} as const;

export const CLOSED = {
  noInventory: (path: string) => ({
    message: `No inventory at ${path}: nothing says an ACME issuer is used.`,
    text: 'Give --inventory PATH (the inventory that sets cluster_issuer_type).',
  }),
  notAcme: (issuer: string | undefined) => `cluster_issuer_type is ${issuer}, not acme.`,
  notRfc2136: (solver: string) => `The ACME solver is ${solver}, not rfc2136.`,
  http01: 'The ACME solver is http01: no DNS credentials are used.',
  rfc2136WithoutProbe:
    'The rfc2136 TSIG key is checked by acme.rfc2136; give --probe-update to try a signed DNS update.',
  noZoneToUpdate: {
    message: 'No domain names the zone to update: set openstack_helm_ingress_wildcard_domain or give --domain.',
    text: 'Set openstack_helm_ingress_wildcard_domain in the inventory, or give --domain.',
  },
  ambient:
    "route53 auth is ambient: the credentials live in the cluster (cert-manager's environment), not in the inventory.",
  keyless: 'route53 auth is kubernetes (keyless): the role assumption is checked by discovery.sts.',
  unknownSolver: (solver: string) => `The ACME solver ${solver} is not a DNS provider cloudgate knows.`,
} as const;
