/** The shape of a row of the variables table, and the values the choosing variables take (vocabulary.ts). */
import type { IssuerType, Route53Auth, Solver, Word } from './vocabulary.js';

export * from './vocabulary.js';

export type VariableType =
  'string' | 'domain' | 'email' | 'url' | 'bool' | 'enum' | 'hostport' | 'pem-certificate' | 'pem-key' | 'map' | 'int';

/** When a row applies; every given field must match (absent = any). */
export interface Condition {
  issuer?: IssuerType[];
  solver?: Solver[];
  auth?: Route53Auth[];
}

export interface Variable {
  /** The platform's name of the variable: what its role reads and what cloudgate writes. */
  name: string;
  /**
   * The neutral alias of the name (docs/neutral-names.md), derived from the vocabulary;
   * absent: the name has no product word. Read and translated; written only with `--names spec`.
   */
  alias?: string;
  type: VariableType;
  /** Allowed values for `enum`. */
  values?: readonly string[];
  /** Help for each enum value: one line shown beside the choice. */
  valueHelp?: Record<string, string>;
  /** The vocabulary of a choosing variable's values, with their neutral aliases (vocabulary.ts). */
  words?: Record<string, Word>;
  appliesWhen?: Condition;
  required: boolean;
  /** The role's default. */
  default?: string | boolean | number;
  /** The default in the neutral words, where it differs; derived from the vocabulary. */
  aliasDefault?: string;
  secret: boolean;
  /** Deprecated in favour of this variable. */
  deprecatedBy?: string;
  /** Marked legacy (e.g. the Venafi username/password). */
  legacy?: boolean;
  /** Marked as the recommended choice among alternatives (e.g. the Venafi access token). */
  recommended?: boolean;
  /** One line: written as the inventory comment and shown by the walkthrough. */
  help: string;
  /** Group heading (walkthrough sections, inventory ordering). */
  section: string;
  /** An illustrative value for prompts, the schema and the README (never a real secret). */
  example?: string;
  /** Required only in part of where the row applies (e.g. the role ARN for route53 auth kubernetes). */
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
  /**
   * The role's default where the walkthrough must not offer it as an answer (the public ACME server:
   * the question is for an internal one); the render and the docs use it.
   */
  roleDefault?: string;
  /** The role's default is the value of this other variable, e.g. the ACME email. */
  defaultFrom?: string;
}

const ACME: Condition = { issuer: ['acme'] };
export const ROW = {
  acme: ACME,
  solver: (s: Solver): Condition => ({ issuer: ['acme'], solver: [s] }),
  route53: (...auth: Route53Auth[]): Condition => ({ issuer: ['acme'], solver: ['route53'], auth }),
};

/** The enum fields of a row whose values are a vocabulary table (the choosing variables). */
export function enumOf(words: Record<string, Word>): Pick<Variable, 'type' | 'values' | 'valueHelp' | 'words'> {
  return {
    type: 'enum',
    values: Object.keys(words),
    words,
    valueHelp: Object.fromEntries(Object.entries(words).map(([value, w]) => [value, w.help])),
  };
}

/**
 * Algorithms cert-manager accepts for RFC 2136 (case-insensitive). The platform has no
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
