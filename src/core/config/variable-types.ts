/** The shape of a row of the variables table, and the values the choosing variables take. */
export type VariableType =
  | 'string' | 'domain' | 'email' | 'url' | 'bool' | 'enum' | 'hostport'
  | 'pem-certificate' | 'pem-key' | 'map' | 'int';

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
  /** The role's default (the neutral naming's, see platformDefault). */
  default?: string | boolean | number;
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
  /**
   * Whether the walkthrough asks it (absent: yes). The rest (the names of what the role creates, the
   * webhooks' releases, ...) is accepted, validated, rendered and documented, never asked.
   */
  asked?: boolean;
  /** The role's default in the platform's naming, where it differs from `default` (the neutral one). */
  platformDefault?: string | boolean | number;
  /**
   * The role's default where the walkthrough must not offer it as an answer (the public ACME server:
   * the question is for an internal one); the render and the docs use it.
   */
  roleDefault?: string;
  /** The role's default is the value of this other variable (neutral name), e.g. the ACME email. */
  defaultFrom?: string;
}


const ACME: Condition = { issuer: ['acme'] };
export const ROW = {
  acme: ACME,
  solver: (s: Solver): Condition => ({ issuer: ['acme'], solver: [s] }),
  clouddnsb: (...auth: ClouddnsbAuth[]): Condition => ({ issuer: ['acme'], solver: ['clouddnsb'], auth }),
};

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

