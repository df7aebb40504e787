/**
 * THE table of inventory variables: every variable the platform's role honours, one row each (the
 * rows live by block in variable-rows/). The walkthrough's questions, validation, the render, the
 * inventory's order and comments, the JSON Schema, docs/variables.md and README's table derive from it.
 * Adding a DNS provider is one new block of rows (plus its value in SOLVERS).
 */
import { ACME_ROWS } from './variable-rows/acme.js';
import { DNS_PROVIDER_ROWS } from './variable-rows/dns-providers.js';
import { ISSUER_ROWS } from './variable-rows/issuers.js';
import { SELECTION_ROWS } from './variable-rows/selection.js';
import { WEBHOOK_ROWS } from './variable-rows/webhooks.js';
import {
  DEFAULT_CLOUDDNSB_AUTH, DEFAULT_ISSUER, DEFAULT_SOLVER, type ClouddnsbAuth, type IssuerType, type Solver, type Variable,
} from './variable-types.js';

export * from './variable-types.js';
export { AZURE_ENVIRONMENTS } from './variable-rows/dns-providers.js';

export const VARIABLES: Variable[] = [...SELECTION_ROWS, ...ACME_ROWS, ...DNS_PROVIDER_ROWS, ...WEBHOOK_ROWS, ...ISSUER_ROWS];

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
    // An unknown value stays as given (the rules report it): T names the known ones, not a checked fact.
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
