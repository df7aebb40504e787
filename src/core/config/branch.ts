import type { Choices } from './variables.js';

/** The branch the choices take, in the variables' own words (`cluster_issuer_acme_solver: route53, auth kubernetes`). */
export function branchWords(choices: Choices): string {
  if (choices.issuer !== 'acme') return `cluster_issuer_type: ${choices.issuer}`;
  if (choices.solver === 'route53') return `cluster_issuer_acme_solver: route53, auth ${choices.auth}`;
  return `cluster_issuer_acme_solver: ${choices.solver}`;
}
