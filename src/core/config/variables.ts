/**
 * THE table of inventory variables: every variable the platform's role honours, one row each, under
 * the platform's own name (the rows live by block in variable-rows/; the values of the choosing
 * variables and the neutral aliases come from vocabulary.ts). The walkthrough's questions, validation,
 * the render, the inventory's order and comments, the JSON Schema, docs/variables.md and README's table
 * derive from it. Adding a DNS provider is one new block of rows plus its word in SOLVERS.
 */
import { ACME_ROWS } from './variable-rows/acme.js';
import { DNS_PROVIDER_ROWS } from './variable-rows/dns-providers.js';
import { ISSUER_ROWS } from './variable-rows/issuers.js';
import { SELECTION_ROWS } from './variable-rows/selection.js';
import { WEBHOOK_ROWS } from './variable-rows/webhooks.js';
import {
  DEFAULT_ROUTE53_AUTH,
  DEFAULT_ISSUER,
  DEFAULT_SOLVER,
  aliasOfName,
  aliasOfObjectName,
  type NamingProfile,
  type Route53Auth,
  type IssuerType,
  type Solver,
  type Variable,
} from './variable-types.js';

export * from './variable-types.js';
export { AZURE_ENVIRONMENTS } from './variable-rows/dns-providers.js';
export { INGRESS_ROLE_VARIABLES } from './variable-rows/selection.js';

/** A row with its neutral alias and the neutral words of an object-name default, derived from the vocabulary. */
function withAlias(row: Variable): Variable {
  const alias = aliasOfName(row.name);
  const aliasDefault =
    row.type === 'string' && typeof row.default === 'string' ? aliasOfObjectName(row.default) : undefined;
  return {
    ...row,
    ...(alias !== row.name ? { alias } : {}),
    ...(aliasDefault !== undefined && aliasDefault !== row.default ? { aliasDefault } : {}),
  };
}

export const VARIABLES: Variable[] = [
  ...SELECTION_ROWS,
  ...ACME_ROWS,
  ...DNS_PROVIDER_ROWS,
  ...WEBHOOK_ROWS,
  ...ISSUER_ROWS,
].map(withAlias);

const BY_NAME = new Map(VARIABLES.map((v) => [v.name, v]));
const BY_ALIAS = new Map(VARIABLES.filter((v) => v.alias).map((v) => [v.alias!, v]));

/** The row of one variable (by the platform's name), or undefined for a name not in the table. */
export function variable(name: string): Variable | undefined {
  return BY_NAME.get(name);
}

/** The row whose neutral alias is `alias`, or undefined. */
export function variableByAlias(alias: string): Variable | undefined {
  return BY_ALIAS.get(alias);
}

/** The role's default of a row as a deployment reading `profile`'s words would have it. */
export function defaultOf(row: Variable, profile: NamingProfile = 'platform'): Variable['default'] {
  return profile === 'spec' && row.aliasDefault !== undefined ? row.aliasDefault : row.default;
}

/** The role's default of a variable by name (`cert-manager-route53`), as text; undefined when it has none. */
export function defaultName(name: string, profile: NamingProfile = 'platform'): string | undefined {
  const row = variable(name);
  const value = row ? defaultOf(row, profile) : undefined;
  return value === undefined ? undefined : String(value);
}

export interface Choices {
  issuer: IssuerType;
  solver: Solver;
  auth: Route53Auth;
}

/** The branch the values choose, with the platform's defaults for what is unset (unknown values stay as given). */
export function choicesOf(values: Record<string, unknown>): Choices {
  const pick = <T extends string>(name: string, fallback: T): T => {
    const v = values[name];
    // An unknown value stays as given (the rules report it): T names the known ones, not a checked fact.
    return (typeof v === 'string' && v.trim() !== '' ? v.trim() : fallback) as T;
  };
  return {
    issuer: pick('cluster_issuer_type', DEFAULT_ISSUER),
    solver: pick('cluster_issuer_acme_solver', DEFAULT_SOLVER),
    auth: pick('cluster_issuer_acme_route53_auth', DEFAULT_ROUTE53_AUTH),
  };
}

/**
 * Whether the values choose keyless DNS credentials: ACME, DNS-01 through route53, auth kubernetes
 * (the cluster's OIDC issuer must then be published, and the walkthrough offers the discovery checks).
 */
export function usesKeylessDns(values: Record<string, unknown>): boolean {
  const { issuer, solver, auth } = choicesOf(values);
  return issuer === 'acme' && solver === 'route53' && auth === 'kubernetes';
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

/** The sections in table order (walkthrough screens, inventory grouping). */
export function sections(): string[] {
  return [...new Set(VARIABLES.map((v) => v.section))];
}
