/** What the rendering finds, as inventory findings (rule, severity, variable), on the branch inventories. */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../../src/core/findings.js';
import { PLATFORM_NEEDS, PLATFORM_SCHEMA, platformFindings } from '../../../../src/core/render/findings.js';
import { BRANCHES, PEM } from '../../../helpers/render-branches.js';

const without = (branch: string, ...names: string[]) =>
  Object.fromEntries(Object.entries(BRANCHES[branch]!).filter(([name]) => !names.includes(name)));
const known = (variable: string, severity: Finding['severity']): Finding => ({
  rule: 'from-the-rules',
  severity,
  variable,
  message: 'said before',
});
const found = (findings: Finding[]) => findings.map((f) => `${f.rule} ${f.severity} ${f.variable ?? '-'}`);

describe('platformFindings', () => {
  it.each(Object.keys(BRANCHES))('%s, complete: no warning, no error', (branch) => {
    expect(platformFindings(BRANCHES[branch]!).filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it("godaddy with the role's defaults: the RoleBinding names an account the chart does not create (info: the chart grants reading Secrets itself)", () => {
    expect(found(platformFindings(BRANCHES['acme godaddy']!))).toEqual([
      'webhook-account info cluster_issuer_acme_godaddy_service_account_name',
    ]);
  });

  it.each<[string, Record<string, unknown>, Finding[], string[]]>([
    [
      'route53 without region and hosted zone',
      without(
        'acme route53 ambient',
        'cluster_issuer_acme_route53_region',
        'cluster_issuer_acme_route53_hosted_zone_id',
      ),
      [],
      [
        `${PLATFORM_NEEDS} error cluster_issuer_acme_route53_region`,
        `${PLATFORM_NEEDS} error cluster_issuer_acme_route53_hosted_zone_id`,
      ],
    ],
    [
      'the same, the rules already erring on the region',
      without(
        'acme route53 ambient',
        'cluster_issuer_acme_route53_region',
        'cluster_issuer_acme_route53_hosted_zone_id',
      ),
      [known('cluster_issuer_acme_route53_region', 'error')],
      [`${PLATFORM_NEEDS} error cluster_issuer_acme_route53_hosted_zone_id`],
    ],
    [
      'the same, the rules only warning on the region',
      without('acme route53 ambient', 'cluster_issuer_acme_route53_region'),
      [known('cluster_issuer_acme_route53_region', 'warning')],
      [`${PLATFORM_NEEDS} error cluster_issuer_acme_route53_region`],
    ],
    [
      'rfc2136 without a TSIG algorithm',
      without('acme rfc2136', 'cluster_issuer_acme_rfc2136_tsig_algorithm'),
      [],
      [`${PLATFORM_NEEDS} error cluster_issuer_acme_rfc2136_tsig_algorithm`],
    ],
    // cert-manager accepts it (v1.15.5 and v1.21.1) and fails at every challenge.
    [
      'kubernetes without a role ARN',
      without('acme route53 kubernetes', 'cluster_issuer_acme_route53_role_arn'),
      [],
      ['never-issues error cluster_issuer_acme_route53_role_arn'],
    ],
    [
      'acme without an email',
      without('acme http01', 'cluster_issuer_acme_email'),
      [],
      [`${PLATFORM_NEEDS} error cluster_issuer_acme_email`],
    ],
    [
      'a PEM where the schema wants base64',
      { ...BRANCHES['venafi token'], cluster_issuer_venafi_tpp_ca_bundle: PEM },
      [],
      [`${PLATFORM_SCHEMA} error cluster_issuer_venafi_tpp_ca_bundle`],
    ],
    [
      'a Secret name Kubernetes refuses',
      { ...BRANCHES['acme route53 static'], cluster_issuer_acme_route53_secret_name: 'My_Secret' },
      [],
      ['api-refuses error cluster_issuer_acme_route53_secret_name'],
    ],
    [
      'the same, the rules already erring on that name',
      { ...BRANCHES['acme route53 static'], cluster_issuer_acme_route53_secret_name: 'My_Secret' },
      [known('cluster_issuer_acme_route53_secret_name', 'error')],
      [],
    ],
  ])('%s', (_, values, rules, expected) => {
    const findings = platformFindings(values, rules);
    expect(found(findings)).toEqual(expected);
    for (const f of findings) expect(f.advice).toBeTruthy();
  });

  it("finds the same under the platform's own object names", () => {
    const values = without('acme route53 ambient', 'cluster_issuer_acme_route53_region');
    expect(found(platformFindings(values, [], 'platform'))).toEqual(found(platformFindings(values)));
  });
});
