/**
 * cloudgate's vocabulary: the platform's own words, which its inventories, its role and its clusters
 * use, and which cloudgate uses everywhere (types, messages, the inventory it writes). Each word that
 * carries a product name has a neutral alias: cloudgate reads the alias wherever it reads a name or a
 * value (answers, --config, an inventory), translates it at once, and reports it where the platform
 * would not read it; it writes the alias only with `--names spec`. docs/neutral-names.md lists them.
 *
 * The values of the three choosing variables are typed unions and every table over them is a
 * `Record<...>`: a new value does not compile until each table that must know it does.
 */

/** One value of a choosing variable. */
export interface Word {
  /** One line: what choosing it means. */
  help: string;
  /** The neutral alias of the value (read, translated and reported; written only with `--names spec`). */
  alias?: string;
  /** The product the word names, for help texts (`route53`: Route 53). */
  product?: string;
}

export type IssuerType = 'acme' | 'venafi' | 'ca' | 'self-signed' | 'none';

export interface IssuerWord extends Word {
  /**
   * The field of the ClusterIssuer's `spec` the platform writes for this type (`ca` for self-signed too:
   * the platform's self-signed type is a CA issuer over its self-signed CA); none: no ClusterIssuer.
   */
  spec?: 'acme' | 'venafi' | 'ca';
  /** Its certificates chain to a CA the operator chose (a served self-signed leaf is then wrong). */
  trusted: boolean;
}

/** `cluster_issuer_type`, in the order the walkthrough offers them. */
export const ISSUER_TYPES: Record<IssuerType, IssuerWord> = {
  acme: {
    help: 'An ACME certificate authority (public, or an internal ACME server); renewed automatically',
    spec: 'acme',
    trusted: true,
  },
  venafi: {
    alias: 'commercialca',
    product: 'Venafi TPP',
    spec: 'venafi',
    trusted: true,
    help: 'Venafi Trust Protection Platform (a commercial CA) with a policy zone and an access token',
  },
  ca: { help: 'Your own CA certificate and key sign the endpoint certificates', spec: 'ca', trusted: true },
  'self-signed': {
    help: 'Self-signed certificates: for development and testing only, not for production',
    spec: 'ca',
    trusted: false,
  },
  none: { help: 'No issuer: you supply an existing wildcard certificate as a TLS secret', trusted: false },
};

export type Solver = 'http01' | 'azuredns' | 'rfc2136' | 'route53' | 'cloudflare' | 'godaddy' | 'infoblox';

export interface SolverWord extends Word {
  /** The solver entry cert-manager reads (`http01`, or the `dns01` provider field; `webhook` for a webhook). */
  field: 'http01' | 'azureDNS' | 'rfc2136' | 'route53' | 'cloudflare' | 'webhook';
}

/** `cluster_issuer_acme_solver`: HTTP-01, or the DNS-01 provider (one task file of the role each). */
export const SOLVERS: Record<Solver, SolverWord> = {
  http01: {
    field: 'http01',
    help: 'HTTP-01 (default): works when the ACME server can reach the API endpoints; needs only the email',
  },
  azuredns: {
    alias: 'clouddnsa',
    product: 'Azure DNS',
    field: 'azureDNS',
    help: 'DNS-01 via Azure DNS (a service principal): use when the ACME server cannot reach the APIs',
  },
  rfc2136: { field: 'rfc2136', help: 'DNS-01 via a DNS server supporting RFC 2136 dynamic updates (TSIG key)' },
  route53: {
    alias: 'clouddnsb',
    product: 'Route 53',
    field: 'route53',
    help: 'DNS-01 via Route 53: static keys, ambient credentials or keyless service-account tokens',
  },
  cloudflare: {
    alias: 'dnsc',
    product: 'Cloudflare',
    field: 'cloudflare',
    help: 'DNS-01 via Cloudflare with an API token',
  },
  godaddy: {
    alias: 'dnsd',
    product: 'GoDaddy',
    field: 'webhook',
    help: 'DNS-01 via GoDaddy: the platform installs its webhook; the account needs 10+ domains',
  },
  infoblox: {
    alias: 'dnse',
    product: 'Infoblox',
    field: 'webhook',
    help: 'DNS-01 via Infoblox (WAPI): the platform installs its webhook',
  },
};

export type Route53Auth = 'static' | 'ambient' | 'kubernetes';

/** `cluster_issuer_acme_route53_auth`: the modes the role's first task accepts. */
export const ROUTE53_AUTH: Record<Route53Auth, Word> = {
  static: { help: 'Access key id and secret access key in the inventory (long-lived keys)' },
  ambient: { help: "Credentials from cert-manager's environment (the default chain); optional role to assume" },
  kubernetes: {
    alias: 'clusteroidc',
    product: 'Kubernetes service-account tokens',
    help: "Keyless: the cluster's service-account token exchanged for a role (needs cert-manager CRDs >= 1.15.0)",
  },
};

// Object.keys types its result as string[]: the keys of a Record<K, ...> table are exactly K.
const keys = <K extends string>(table: Record<K, unknown>): readonly K[] => Object.keys(table) as K[];
export const ISSUER_TYPE_VALUES = keys(ISSUER_TYPES);
export const SOLVER_VALUES = keys(SOLVERS);
export const ROUTE53_AUTH_MODES = keys(ROUTE53_AUTH);

export const DEFAULT_ISSUER: IssuerType = 'acme';
export const DEFAULT_SOLVER: Solver = 'http01';
export const DEFAULT_ROUTE53_AUTH: Route53Auth = 'static';

/** Which words a deployment reads: the platform's own (the default), or the neutral aliases (`--names spec`). */
export type NamingProfile = 'platform' | 'spec';
export const NAMING_PROFILES: readonly NamingProfile[] = ['platform', 'spec'];

/** The product words of the issuer types and solvers, each with its alias: the words variable and object names carry. */
const PRODUCT_WORDS: [word: string, alias: string][] = [ISSUER_TYPES, SOLVERS]
  .flatMap((table) => Object.entries<Word>(table))
  .filter(([, w]) => w.alias !== undefined)
  .map(([word, w]) => [word, w.alias!]);

/** The platform-wide prefixes of variable names other roles read too, with their aliases. */
const NAME_PREFIXES: [prefix: string, alias: string][] = [
  ['openstack_helm_ingress_', 'cloud_helm_ingress_'],
  ['atmosphere_ingress_', 'platform_ingress_'],
];

/** The neutral alias of a variable name (`cluster_issuer_acme_route53_region` → `..._clouddnsb_region`); the name when it has none. */
export function aliasOfName(name: string): string {
  for (const [prefix, alias] of NAME_PREFIXES) if (name.startsWith(prefix)) return alias + name.slice(prefix.length);
  for (const [word, alias] of PRODUCT_WORDS)
    if (name.includes(`_${word}_`)) return name.replace(`_${word}_`, `_${alias}_`);
  return name;
}

/** The platform's spelling of a name written with the neutral words (the inverse of aliasOfName, for any name). */
export function platformOfName(name: string): string {
  for (const [prefix, alias] of NAME_PREFIXES) if (name.startsWith(alias)) return prefix + name.slice(alias.length);
  for (const [word, alias] of PRODUCT_WORDS)
    if (name.includes(`_${alias}_`)) return name.replace(`_${alias}_`, `_${word}_`);
  return name;
}

/** The prefixes of the variables cloudgate reads, in both words (a misspelt one is still found). */
export const OWNED_PREFIXES = ['cluster_issuer_', ...NAME_PREFIXES.flat()];

/** The alias of a value of a choosing variable's words (`route53` → `clouddnsb`), or undefined. */
export function aliasOfWord(table: Record<string, Word>, value: string): string | undefined {
  return table[value]?.alias;
}

/** The platform's value a neutral alias stands for in a table (`clouddnsb` → `route53`), or undefined. */
export function wordOfAlias<K extends string>(table: Record<K, Word>, alias: string): K | undefined {
  return keys(table).find((k) => table[k].alias === alias);
}

// A product word between name separators (`-`, `.`, `/`, `:`), or `cert-manager` inside a longer name.
const OBJECT_WORDS = new RegExp(`(?<![A-Za-z0-9])(${PRODUCT_WORDS.map(([w]) => w).join('|')})(?![A-Za-z0-9])`, 'g');
const ALIAS_OF = new Map(PRODUCT_WORDS);

/**
 * The name the role would give an object in the neutral words (`cert-manager-issuer-route53-credentials`
 * → `certmgr-issuer-clouddnsb-credentials`). A bare `cert-manager` is cert-manager's own (its namespace,
 * its controller's service account): cert-manager's API is never renamed.
 */
export function aliasOfObjectName(name: string): string {
  if (name === 'cert-manager') return name;
  return name.replace(OBJECT_WORDS, (w) => ALIAS_OF.get(w) ?? w).replaceAll('cert-manager', 'certmgr');
}
