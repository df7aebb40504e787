/**
 * THE table of inventory variables (SPEC.md Area B). One row per variable; the wizard's questions,
 * validation, the inventory's order and comments, the JSON Schema and the README table derive from it.
 * Rows are filled in by the foundation work (issue 2).
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
  /** One line: written as the inventory comment and shown by the wizard. */
  help: string;
  /** Group heading (wizard sections, inventory ordering). */
  section: string;
}

export const VARIABLES: Variable[] = [];
