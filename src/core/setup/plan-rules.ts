/**
 * The rules planSetup applies to the merged answers that are its own (not the variables' rules):
 * the TPP bundle's encoding, answers the choices exclude, and whether an inventory has issuer settings.
 */
import type { Finding } from '../findings.js';
import { BASE64_BUNDLE, isSet } from '../config/validate.js';
import { VARIABLES, choicesOf, variable } from '../config/variables.js';
import { pemVariableFindings } from '../tls/variable-rules.js';

/**
 * The platform passes the TPP bundle unchanged into a field cert-manager reads as base64:
 * a PEM bundle given in the answers (or the walkthrough's file) is written base64-encoded, and said so.
 */
export function encodeBundle(set: Record<string, unknown>, now = new Date()): Finding[] {
  const pem = set[BASE64_BUNDLE];
  if (typeof pem !== 'string' || !pem.includes('-----BEGIN CERTIFICATE-----')) return [];
  set[BASE64_BUNDLE] = Buffer.from(pem).toString('base64');
  return [
    // The certificate checks run on the PEM given: the encoded value is not read again.
    ...pemVariableFindings({ [BASE64_BUNDLE]: pem }, now),
    {
      rule: 'venafi-tpp-ca-bundle-encoded',
      severity: 'info',
      variable: BASE64_BUNDLE,
      message: `${BASE64_BUNDLE} is written base64-encoded: the platform passes it unchanged to the issuer's caBundle, which takes base64.`,
    },
  ];
}

export interface ContradictionContext {
  inventory: Record<string, unknown>;
  explicit: Set<string>;
  /** The answers supply a wildcard certificate (which sets cluster_issuer_type: none). */
  supplied: boolean;
}

/** An answer the choices do not use: names the answer and the choice that excludes it, and where that choice comes from. */
export function contradiction(
  name: string,
  when: NonNullable<ReturnType<typeof variable>>['appliesWhen'],
  choices: ReturnType<typeof choicesOf>,
  ctx: ContradictionContext,
): Finding {
  const [choice, wanted, actual] =
    when?.issuer && !when.issuer.includes(choices.issuer)
      ? ['cluster_issuer_type', when.issuer, choices.issuer]
      : when?.solver && !when.solver.includes(choices.solver)
        ? ['cluster_issuer_acme_solver', when.solver, choices.solver]
        : ['cluster_issuer_acme_route53_auth', when?.auth ?? [], choices.auth];
  const source = ctx.explicit.has(choice)
    ? 'set in the answers'
    : choice === 'cluster_issuer_type' && ctx.supplied
      ? 'because the answers supply a wildcard certificate'
      : isSet(ctx.inventory[choice])
        ? 'as the inventory has it'
        : 'its default';
  return {
    rule: 'contradictory-answers',
    severity: 'error',
    variable: name,
    message: `The answers give ${name}, which is used only with ${choice}: ${wanted.join(' or ')}, but ${choice} is ${actual} (${source}): one of the two is wrong, and a value you give is never dropped.`,
    advice: `Remove ${name} from the answers, or set ${choice}: ${wanted[0]} in them.`,
  };
}

export function hasIssuerSettings(values: Record<string, unknown>): boolean {
  return VARIABLES.some((row) => row.name !== 'atmosphere_ingress_annotations' && isSet(values[row.name]));
}
