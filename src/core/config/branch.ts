import type { Choices } from './variables.js';

/** The branch the choices take, in the variables' own words (`cluster_issuer_acme_solver: clouddnsb, auth clusteroidc`). */
export function branchWords(choices: Choices): string {
  if (choices.issuer !== 'acme') return `cluster_issuer_type: ${choices.issuer}`;
  if (choices.solver === 'clouddnsb') return `cluster_issuer_acme_solver: clouddnsb, auth ${choices.auth}`;
  return `cluster_issuer_acme_solver: ${choices.solver}`;
}
