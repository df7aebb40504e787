import type { Finding } from '../findings.js';
import type { CertCheck } from './checks.js';
import { examine, type CertificateRole } from './examine.js';

interface PemRule {
  certificate: string;
  key?: string;
  role: CertificateRole;
  /** Prefix of the finding's rule id (`<prefix>-<check>`), reported as `inventory.<rule>`. */
  prefix: string;
  renewAdvice: string;
}

export const PEM_RULES: PemRule[] = [
  {
    certificate: 'cluster_issuer_ca_certificate',
    key: 'cluster_issuer_ca_private_key',
    role: 'ca-issuer',
    prefix: 'ca-certificate',
    renewAdvice:
      'Renew the CA certificate and put the new chain in cluster_issuer_ca_certificate; certificates it signs stop working when it expires.',
  },
  {
    certificate: 'cluster_issuer_venafi_ca',
    role: 'ca-issuer',
    prefix: 'venafi-ca',
    renewAdvice: 'Get the current CA chain from Venafi and put it in cluster_issuer_venafi_ca.',
  },
  {
    certificate: 'cluster_issuer_venafi_tpp_ca_bundle',
    role: 'ca-bundle',
    prefix: 'venafi-tpp-ca-bundle',
    renewAdvice: 'Put the current CA certificate of the Venafi TPP server in cluster_issuer_venafi_tpp_ca_bundle.',
  },
];

/**
 * Whether a finding is one of the certificate checks of a PEM variable: in the doctor, the certificate
 * group owns those (certificate.<prefix>.<check>), so the inventory group leaves them out.
 */
export function isPemVariableFinding(rule: string): boolean {
  return PEM_RULES.some((r) => rule.startsWith(`${r.prefix}-`));
}

const pemText = (value: unknown): string | undefined =>
  typeof value === 'string' && value.includes('-----BEGIN') ? value : undefined;

/**
 * Certificate checks of the inventory's PEM variables (cluster_issuer_ca_certificate + _private_key,
 * cluster_issuer_venafi_ca, cluster_issuer_venafi_tpp_ca_bundle): readable, chain order,
 * key match, CA flags, validity. A value that is not PEM at all is left to validate.ts's format rule.
 * `files` maps a variable to the file its value was read from (the answers' `file:PATH`, the walkthrough's
 * file questions).
 */
export function pemVariableFindings(
  values: Record<string, unknown>,
  now: Date = new Date(),
  files: Record<string, string> = {},
): Finding[] {
  // A value read from a file is named by the file first, so the message says which file to fix.
  const source = (name: string) => (files[name] ? `${files[name]} (${name})` : name);
  const findings: Finding[] = [];
  for (const rule of PEM_RULES) {
    const certPem = pemText(values[rule.certificate]);
    const keyPem = rule.key ? pemText(values[rule.key]) : undefined;
    if (!certPem && !keyPem) continue;
    const checks = examine({
      certPem: certPem ?? '',
      certSource: source(rule.certificate),
      keyPem,
      keySource: rule.key && source(rule.key),
      role: rule.role,
      now,
      fixHint: `Reorder the PEM value of ${rule.certificate}: ${rule.role === 'ca-bundle' ? 'each certificate followed by its issuer' : 'issuer first, then intermediate(s), then root'}.`,
      renewAdvice: rule.renewAdvice,
    }).checks;
    for (const check of checks) {
      if (!certPem && check.name !== 'key') continue;
      const finding = toFinding(
        check,
        `${rule.prefix}-${check.name}`,
        isKeyCheck(check) ? rule.key! : rule.certificate,
      );
      if (finding) findings.push(finding);
    }
  }
  return findings;
}

const isKeyCheck = (check: CertCheck) => check.name === 'key' || check.name === 'key-match';

/** fail → error, warn → warning; ok and skip are no finding. */
export function toFinding(check: CertCheck, rule: string, variable: string): Finding | undefined {
  if (check.status !== 'fail' && check.status !== 'warn') return undefined;
  return {
    rule,
    variable,
    severity: check.status === 'fail' ? 'error' : 'warning',
    message: check.message,
    ...(check.advice ? { advice: check.advice } : {}),
  };
}
