/**
 * A CA chain (the ca issuer's certificate, the commercial CA's) in the wrong order whose right order is
 * known: the chain in that order. The walkthrough offers it on the file question; the answers mode
 * uses it with --fix-order, and otherwise names --fix-order in the order error's advice.
 */
import type { Finding } from '../findings.js';
import { examine } from '../tls/examine.js';
import { PEM_RULES } from '../tls/variable-rules.js';

export interface OrderedChain {
  /** The PEM text of the chain in the right order (issuer first, root last). */
  pem: string;
  /** The subjects in that order, as the messages name them. */
  names: string[];
}

/** The right order of `variable`'s chain when the order is wrong and known; undefined otherwise (or not a CA chain). */
export function orderedCaChain(variable: string, text: string, source: string): OrderedChain | undefined {
  const rule = PEM_RULES.find((r) => r.certificate === variable && r.role === 'ca-issuer');
  if (!rule) return undefined;
  const { ordered, checks } = examine({
    certPem: text,
    certSource: source,
    role: rule.role,
    now: new Date(),
    fixOrder: false,
    fixHint: '',
    renewAdvice: rule.renewAdvice,
  });
  if (!ordered || !checks.some((c) => c.name === 'chain-order' && c.status === 'fail')) return undefined;
  return { pem: `${ordered.map((c) => c.x509.toString().trim()).join('\n')}\n`, names: ordered.map((c) => c.name) };
}

/** Whether a finding is the order error of a CA chain. */
export const isChainOrderError = (f: Finding): boolean => f.rule.endsWith('-chain-order') && f.severity === 'error';

/**
 * The answers mode's CA chains: with --fix-order, each chain in the wrong order whose right order is
 * known is put in that order in `set` (the file is not changed), with an info saying so; without, the
 * names of the chains --fix-order would put in order.
 */
export function orderCaChains(
  set: Record<string, unknown>,
  files: Record<string, string> | undefined,
  fixOrder: boolean,
): { findings: Finding[]; fixable: string[] } {
  const findings: Finding[] = [];
  const fixable: string[] = [];
  for (const rule of PEM_RULES) {
    const text = set[rule.certificate];
    if (typeof text !== 'string') continue;
    const source = files?.[rule.certificate] ?? rule.certificate;
    const ordered = orderedCaChain(rule.certificate, text, source);
    if (!ordered) continue;
    if (!fixOrder) {
      fixable.push(rule.certificate);
      continue;
    }
    set[rule.certificate] = ordered.pem;
    findings.push({
      rule: 'chain-reordered',
      severity: 'info',
      variable: rule.certificate,
      message: `${source} is not in the order issuer, intermediate(s), root; --fix-order writes it to ${rule.certificate} as ${ordered.names.join(', ')} (the file is not changed).`,
    });
  }
  return { findings, fixable };
}
