/**
 * THE table of inventory variables (the certificate settings). One row per variable; the wizard's questions,
 * validation, the inventory's order and comments, the JSON Schema and the README table derive from it.
 * Adding a DNS provider is one new block of rows (plus its value in SOLVERS).
 */
export type VariableType =
  | 'string' | 'domain' | 'email' | 'url' | 'bool' | 'enum' | 'hostport'
  | 'pem-certificate' | 'pem-key' | 'map';

export type IssuerType = 'acme' | 'commercialca' | 'ca' | 'self-signed' | 'none';
export type Solver = 'http01' | 'clouddnsa' | 'rfc2136' | 'clouddnsb' | 'dnsc' | 'dnsd' | 'dnse';
export type ClouddnsbAuth = 'static' | 'ambient' | 'clusteroidc';

/** When a row applies; every given field must match (absent = any). */
export interface Condition {
  issuer?: IssuerType[];
  solver?: Solver[];
  auth?: ClouddnsbAuth[];
}

export interface Variable {
  name: string;
  /** The platform's own name of the variable (`--names platform`); absent: the same name. */
  platformName?: string;
  type: VariableType;
  /** Allowed values for `enum`. */
  values?: readonly string[];
  /** Help for each enum value: one line shown beside the choice. */
  valueHelp?: Record<string, string>;
  appliesWhen?: Condition;
  required: boolean;
  default?: string | boolean;
  secret: boolean;
  /** Deprecated in favour of this variable. */
  deprecatedBy?: string;
  /** Marked legacy (e.g. commercial CA username/password). */
  legacy?: boolean;
  /** Marked as the recommended choice among alternatives (e.g. commercial CA access token). */
  recommended?: boolean;
  /** One line: written as the inventory comment and shown by the wizard. */
  help: string;
  /** Group heading (wizard sections, inventory ordering). */
  section: string;
  /** An illustrative value for prompts, the schema and the README (never a real secret). */
  example?: string;
  /** Required only in part of where the row applies (e.g. the role ARN for clusteroidc). */
  requiredWhen?: Condition;
  /** For `map`: the allowed keys (anything else is reported). */
  keys?: readonly string[];
  /**
   * The platform's templates use it without a default wherever the row applies: left unset, the
   * deployment stops ("undefined variable"). Shown as "needed by the platform, no default".
   */
  platformNeeds?: boolean;
}

export const ISSUER_TYPES: readonly IssuerType[] = ['acme', 'commercialca', 'ca', 'self-signed', 'none'];
export const SOLVERS: readonly Solver[] = ['http01', 'clouddnsa', 'rfc2136', 'clouddnsb', 'dnsc', 'dnsd', 'dnse'];
export const CLOUDDNSB_AUTH_MODES: readonly ClouddnsbAuth[] = ['static', 'ambient', 'clusteroidc'];
/**
 * Algorithms the certificate manager accepts for RFC 2136 (case-insensitive). The platform has no
 * default; the walkthrough highlights the first, so the one recommended for new keys comes first.
 */
export const TSIG_ALGORITHMS = ['HMACSHA256', 'HMACSHA512', 'HMACSHA1', 'HMACMD5'] as const;
export const ANNOTATION_PREFIX = 'cert-manager.io';
export const ANNOTATION_SUFFIXES = [
  'subject-organizations',
  'subject-organizationalunits',
  'subject-localities',
  'subject-provinces',
  'subject-countries',
] as const;
export const ANNOTATION_KEYS = ANNOTATION_SUFFIXES.map((s) => `${ANNOTATION_PREFIX}/${s}`);

export const DEFAULT_ISSUER: IssuerType = 'acme';
export const DEFAULT_SOLVER: Solver = 'http01';
export const DEFAULT_CLOUDDNSB_AUTH: ClouddnsbAuth = 'static';

const ACME: Condition = { issuer: ['acme'] };
const solver = (s: Solver): Condition => ({ issuer: ['acme'], solver: [s] });
const clouddnsb = (...auth: ClouddnsbAuth[]): Condition => ({ issuer: ['acme'], solver: ['clouddnsb'], auth });

export const VARIABLES: Variable[] = [
  // Endpoint certificate selection
  {
    name: 'cloud_helm_ingress_wildcard_domain', platformName: 'openstack_helm_ingress_wildcard_domain',
    type: 'domain', required: false, secret: false,
    section: 'Endpoint certificates', example: 'cloud.example.com',
    help: 'One wildcard certificate for *.<domain> instead of one certificate per endpoint (unset: individual certificates)',
  },
  {
    name: 'cloud_helm_ingress_secret_name', platformName: 'openstack_helm_ingress_secret_name',
    type: 'string', required: false, secret: false,
    appliesWhen: { issuer: ['none'] }, section: 'Endpoint certificates', example: 'wildcard-certs',
    help: 'Name of the TLS secret holding a supplied wildcard certificate (requires cluster_issuer_type: none)',
  },
  {
    name: 'cluster_issuer_type', type: 'enum', values: ISSUER_TYPES, default: DEFAULT_ISSUER,
    required: false, secret: false, section: 'Endpoint certificates',
    help: 'Who issues the endpoint certificates',
    valueHelp: {
      acme: 'An ACME certificate authority (public, or an internal ACME server); renewed automatically',
      commercialca: 'A commercial certificate authority (TPP) with a zone and an access token',
      ca: 'Your own CA certificate and key sign the endpoint certificates',
      'self-signed': 'Self-signed certificates: for development and testing only, not for production',
      none: 'No issuer: you supply an existing wildcard certificate as a TLS secret',
    },
  },
  {
    name: 'platform_ingress_annotations', platformName: 'atmosphere_ingress_annotations',
    type: 'map', keys: ANNOTATION_KEYS, required: false, secret: false,
    section: 'Certificate subject annotations',
    example: `${ANNOTATION_PREFIX}/subject-organizations: Example Org`,
    help: `Annotations on all ingresses; only ${ANNOTATION_PREFIX}/subject-* fields (e.g. when a commercial CA zone enforces them)`,
  },
  {
    name: 'ingress_global_annotations', type: 'map', keys: ANNOTATION_KEYS, required: false, secret: false,
    deprecatedBy: 'platform_ingress_annotations', section: 'Certificate subject annotations',
    help: 'Deprecated: use platform_ingress_annotations',
  },

  // ACME issuer
  {
    name: 'cluster_issuer_acme_email', type: 'email', required: true, secret: false, appliesWhen: ACME,
    section: 'ACME issuer', example: 'certificates@example.com',
    help: 'Contact email of the ACME account (needed whatever the challenge type)',
  },
  {
    name: 'cluster_issuer_acme_server', type: 'url', required: false, secret: false, appliesWhen: ACME,
    section: 'ACME issuer', example: 'https://acme.internal.example.com/directory',
    help: 'Directory URL of an internal ACME server (unset: a public ACME certificate authority)',
  },
  {
    name: 'cluster_issuer_acme_private_ca', type: 'bool', default: false, required: false, secret: false,
    appliesWhen: ACME, section: 'ACME issuer',
    help: 'true when the ACME server uses a certificate signed by a custom CA, so that it is trusted',
  },
  {
    name: 'cluster_issuer_acme_solver', type: 'enum', values: SOLVERS, default: DEFAULT_SOLVER,
    required: false, secret: false, appliesWhen: ACME, section: 'ACME issuer',
    help: 'Challenge type: HTTP-01, or the DNS provider for DNS-01',
    valueHelp: {
      http01: 'HTTP-01 (default): works when the ACME server can reach the API endpoints; needs only the email',
      clouddnsa: 'DNS-01 via clouddnsa (service principal): use when the ACME server cannot reach the APIs',
      rfc2136: 'DNS-01 via a DNS server supporting RFC 2136 dynamic updates (TSIG key)',
      clouddnsb: 'DNS-01 via clouddnsb: static keys, ambient credentials or keyless cluster OIDC',
      dnsc: 'DNS-01 via dnsc with an API token',
      dnsd: 'DNS-01 via dnsd: needs a separate webhook and an account with 10+ domains',
      dnse: 'DNS-01 via dnse: needs a separate webhook component',
    },
  },

  // DNS-01 provider clouddnsa
  {
    name: 'cluster_issuer_acme_clouddnsa_client_id', platformName: 'cluster_issuer_acme_azuredns_client_id',
    type: 'string', required: true, secret: false,
    appliesWhen: solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Service principal client id',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_client_secret', platformName: 'cluster_issuer_acme_azuredns_client_secret',
    type: 'string', required: true, secret: true,
    appliesWhen: solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Service principal secret',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_subscription_id', platformName: 'cluster_issuer_acme_azuredns_subscription_id',
    type: 'string', required: true, secret: false,
    appliesWhen: solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Subscription id',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_tenant_id', platformName: 'cluster_issuer_acme_azuredns_tenant_id',
    type: 'string', required: true, secret: false,
    appliesWhen: solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Tenant id',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_resourcegroup_name', platformName: 'cluster_issuer_acme_azuredns_resourcegroup_name',
    type: 'string', required: true, secret: false,
    appliesWhen: solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Resource group of the DNS zone',
  },
  {
    name: 'cluster_issuer_acme_clouddnsa_hostedzone_name', platformName: 'cluster_issuer_acme_azuredns_hostedzone_name',
    type: 'string', required: true, secret: false,
    appliesWhen: solver('clouddnsa'), section: 'DNS-01 provider clouddnsa', help: 'Hosted zone name',
    example: 'example.com',
  },

  // DNS-01 provider rfc2136
  {
    name: 'cluster_issuer_acme_rfc2136_nameserver', type: 'hostport', required: true, secret: false,
    appliesWhen: solver('rfc2136'), section: 'DNS-01 provider rfc2136', example: 'ns1.example.com:53',
    help: 'Name server accepting dynamic updates, as host:port (IPv6 in brackets: [2001:db8::1]:53)',
  },
  {
    // cert-manager's own default (HMACMD5) never applies: the platform always passes this variable.
    name: 'cluster_issuer_acme_rfc2136_tsig_algorithm', type: 'enum', values: TSIG_ALGORITHMS,
    required: false, platformNeeds: true, secret: false, appliesWhen: solver('rfc2136'),
    section: 'DNS-01 provider rfc2136', help: 'TSIG algorithm of the key (needed by the platform, no default)',
    valueHelp: {
      HMACSHA256: 'HMAC-SHA256 (recommended for new keys: tsig-keygen makes these)',
      HMACSHA512: 'HMAC-SHA512',
      HMACSHA1: 'HMAC-SHA1',
      HMACMD5: 'HMAC-MD5 (older keys)',
    },
  },
  {
    name: 'cluster_issuer_acme_rfc2136_tsig_key_name', type: 'string', required: true, secret: false,
    appliesWhen: solver('rfc2136'), section: 'DNS-01 provider rfc2136', help: 'TSIG key name',
    example: 'certmgr-key',
  },
  {
    name: 'cluster_issuer_acme_rfc2136_tsig_secret_key', type: 'string', required: true, secret: true,
    appliesWhen: solver('rfc2136'), section: 'DNS-01 provider rfc2136', help: 'TSIG secret (base64)',
  },

  // DNS-01 provider clouddnsb
  {
    name: 'cluster_issuer_acme_clouddnsb_auth', platformName: 'cluster_issuer_acme_route53_auth',
    type: 'enum', values: CLOUDDNSB_AUTH_MODES,
    default: DEFAULT_CLOUDDNSB_AUTH, required: false, secret: false, appliesWhen: solver('clouddnsb'),
    section: 'DNS-01 provider clouddnsb', help: 'How the certificate manager authenticates to the DNS API',
    valueHelp: {
      static: 'Access key id and secret access key in the inventory (long-lived keys)',
      ambient: 'Credentials from the certificate manager\'s environment (default chain); optional role to assume',
      clusteroidc: 'Keyless: the cluster\'s service-account token exchanged for a role (needs CRDs >= 1.15.0)',
    },
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_region', platformName: 'cluster_issuer_acme_route53_region',
    type: 'string',
    required: false, platformNeeds: true, secret: false, appliesWhen: solver('clouddnsb'), section: 'DNS-01 provider clouddnsb',
    help: 'Region for DNS API calls (needed by the platform whatever the auth mode, no default)', example: 'us-east-1',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_hosted_zone_id', platformName: 'cluster_issuer_acme_route53_hosted_zone_id',
    type: 'string',
    required: false, platformNeeds: true, secret: false, appliesWhen: solver('clouddnsb'), section: 'DNS-01 provider clouddnsb',
    example: 'Z0123456789ABCDEFGHIJ',
    help: 'Id of the hosted zone holding the domain (needed by the platform whatever the auth mode, no default)',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_access_key_id', platformName: 'cluster_issuer_acme_route53_access_key_id',
    type: 'string', required: true, secret: false,
    appliesWhen: clouddnsb('static'), section: 'DNS-01 provider clouddnsb',
    help: 'Access key id allowed to update the hosted zone (static)',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_secret_access_key', platformName: 'cluster_issuer_acme_route53_secret_access_key',
    type: 'string', required: true, secret: true,
    appliesWhen: clouddnsb('static'), section: 'DNS-01 provider clouddnsb', help: 'Secret access key (static)',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_secret_name', platformName: 'cluster_issuer_acme_route53_secret_name',
    type: 'string', default: 'certmgr-issuer-clouddnsb-credentials',
    required: false, secret: false, appliesWhen: clouddnsb('static'), section: 'DNS-01 provider clouddnsb',
    help: 'Name of the secret that holds the static credentials',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_role_arn', platformName: 'cluster_issuer_acme_route53_role_arn',
    type: 'string', required: false, secret: false,
    appliesWhen: clouddnsb('ambient', 'clusteroidc'), requiredWhen: clouddnsb('clusteroidc'), section: 'DNS-01 provider clouddnsb',
    example: 'arn:aws:iam::123456789012:role/certmgr-dns01',
    help: 'Role to assume (required for clusteroidc; optional for ambient)',
  },
  {
    name: 'cluster_issuer_acme_clouddnsb_service_account_name', platformName: 'cluster_issuer_acme_route53_service_account_name',
    type: 'string', default: 'certmgr-clouddnsb',
    required: false, secret: false, appliesWhen: clouddnsb('clusteroidc'), section: 'DNS-01 provider clouddnsb',
    help: 'Service account whose projected token is exchanged for the role (clusteroidc)',
  },

  // DNS-01 provider dnsc
  {
    name: 'cluster_issuer_acme_dnsc_api_token', platformName: 'cluster_issuer_acme_cloudflare_api_token',
    type: 'string', required: true, secret: true,
    appliesWhen: solver('dnsc'), section: 'DNS-01 provider dnsc', help: 'API token allowed to edit the zone',
  },
  {
    name: 'cluster_issuer_acme_dnsc_email', platformName: 'cluster_issuer_acme_cloudflare_email',
    type: 'email', required: false, secret: false,
    appliesWhen: solver('dnsc'), section: 'DNS-01 provider dnsc',
    help: 'Provider account email, only when it differs from the ACME email',
  },

  // DNS-01 provider dnsd
  {
    name: 'cluster_issuer_acme_dnsd_api_key', platformName: 'cluster_issuer_acme_godaddy_api_key',
    type: 'string', required: true, secret: true,
    appliesWhen: solver('dnsd'), section: 'DNS-01 provider dnsd', help: 'API key',
  },
  {
    name: 'cluster_issuer_acme_dnsd_secret_key', platformName: 'cluster_issuer_acme_godaddy_secret_key',
    type: 'string', required: true, secret: true,
    appliesWhen: solver('dnsd'), section: 'DNS-01 provider dnsd', help: 'API secret key',
  },

  // DNS-01 provider dnse
  {
    name: 'cluster_issuer_acme_dnse_view', platformName: 'cluster_issuer_acme_infoblox_view',
    type: 'string', required: true, secret: false,
    appliesWhen: solver('dnse'), section: 'DNS-01 provider dnse', help: 'DNS view holding the zone', example: 'default',
  },
  {
    name: 'cluster_issuer_acme_dnse_host', platformName: 'cluster_issuer_acme_infoblox_host',
    type: 'string', required: true, secret: false,
    appliesWhen: solver('dnse'), section: 'DNS-01 provider dnse', help: 'Host of the DNS appliance API',
    example: 'dns.example.com',
  },
  {
    name: 'cluster_issuer_acme_dnse_username', platformName: 'cluster_issuer_acme_infoblox_username',
    type: 'string', required: true, secret: false,
    appliesWhen: solver('dnse'), section: 'DNS-01 provider dnse', help: 'API user name',
  },
  {
    name: 'cluster_issuer_acme_dnse_password', platformName: 'cluster_issuer_acme_infoblox_password',
    type: 'string', required: true, secret: true,
    appliesWhen: solver('dnse'), section: 'DNS-01 provider dnse', help: 'API password',
  },

  // Commercial CA issuer
  {
    name: 'cluster_issuer_commercialca_ca', platformName: 'cluster_issuer_venafi_ca',
    type: 'pem-certificate', required: true, secret: false,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'Issuing CA certificate; for an intermediate, the full chain: issuer, intermediate(s), root',
  },
  {
    name: 'cluster_issuer_commercialca_zone', platformName: 'cluster_issuer_venafi_zone',
    type: 'string', required: true, secret: false,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer', help: 'Policy zone',
    example: 'Certificates\\Cloud',
  },
  {
    name: 'cluster_issuer_commercialca_tpp_url', platformName: 'cluster_issuer_venafi_tpp_url',
    type: 'url', required: true, secret: false,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer', help: 'URL of the TPP server',
    example: 'https://tpp.example.com/vedsdk',
  },
  {
    name: 'cluster_issuer_commercialca_tpp_ca_bundle', platformName: 'cluster_issuer_venafi_tpp_ca_bundle',
    type: 'pem-certificate',
    required: false, platformNeeds: true, secret: false, appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'CA bundle that signed the TPP server\'s certificate (needed by the platform, no default)',
  },
  {
    name: 'cluster_issuer_commercialca_access_token', platformName: 'cluster_issuer_venafi_access_token',
    type: 'string', required: false, secret: true,
    recommended: true, appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'Access token (recommended; use it instead of username and password)',
  },
  {
    name: 'cluster_issuer_commercialca_username', platformName: 'cluster_issuer_venafi_username',
    type: 'string', required: false, secret: false, legacy: true,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'User name, with password: legacy authentication being phased out',
  },
  {
    name: 'cluster_issuer_commercialca_password', platformName: 'cluster_issuer_venafi_password',
    type: 'string', required: false, secret: true, legacy: true,
    appliesWhen: { issuer: ['commercialca'] }, section: 'Commercial CA issuer',
    help: 'Password, with user name: legacy authentication being phased out',
  },

  // Pre-existing CA issuer
  {
    name: 'cluster_issuer_ca_certificate', type: 'pem-certificate', required: true, secret: false,
    appliesWhen: { issuer: ['ca'] }, section: 'CA issuer',
    help: 'CA certificate; for an intermediate, the full chain: issuer, intermediate(s), root',
  },
  {
    name: 'cluster_issuer_ca_private_key', type: 'pem-key', required: true, secret: true,
    appliesWhen: { issuer: ['ca'] }, section: 'CA issuer', help: 'Private key of the CA certificate',
  },
];

const BY_NAME = new Map(VARIABLES.map((v) => [v.name, v]));

/** The row of one variable, or undefined for a name not in the table. */
export function variable(name: string): Variable | undefined {
  return BY_NAME.get(name);
}

export interface Choices {
  issuer: IssuerType;
  solver: Solver;
  auth: ClouddnsbAuth;
}

/** The branch the values choose, with the platform's defaults for what is unset (unknown values stay as given). */
export function choicesOf(values: Record<string, unknown>): Choices {
  const pick = <T extends string>(name: string, fallback: T): T => {
    const v = values[name];
    return (typeof v === 'string' && v.trim() !== '' ? v.trim() : fallback) as T;
  };
  return {
    issuer: pick('cluster_issuer_type', DEFAULT_ISSUER),
    solver: pick('cluster_issuer_acme_solver', DEFAULT_SOLVER),
    auth: pick('cluster_issuer_acme_clouddnsb_auth', DEFAULT_CLOUDDNSB_AUTH),
  };
}

/**
 * Whether the values choose keyless DNS credentials: ACME, DNS-01 through clouddnsb, auth clusteroidc
 * (the cluster's OIDC issuer must then be published, and the walkthrough offers the discovery checks).
 */
export function usesKeylessDns(values: Record<string, unknown>): boolean {
  const { issuer, solver, auth } = choicesOf(values);
  return issuer === 'acme' && solver === 'clouddnsb' && auth === 'clusteroidc';
}

export function applies(row: Variable, choices: Choices): boolean {
  const c = row.appliesWhen;
  if (!c) return true;
  if (c.issuer && !c.issuer.includes(choices.issuer)) return false;
  if (c.solver && !c.solver.includes(choices.solver)) return false;
  if (c.auth && !c.auth.includes(choices.auth)) return false;
  return true;
}

/** The rows that apply to the current choices, in table order. */
export function variablesFor(values: Record<string, unknown>): Variable[] {
  const choices = choicesOf(values);
  return VARIABLES.filter((row) => applies(row, choices));
}

/** The sections in table order (wizard screens, inventory grouping). */
export function sections(): string[] {
  return [...new Set(VARIABLES.map((v) => v.section))];
}
