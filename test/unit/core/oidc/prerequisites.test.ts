import { describe, expect, it } from 'vitest';
import { keylessPrerequisites, discoveryDoctorCommand } from '../../../../src/core/oidc/prerequisites.js';

describe('kubernetes prerequisites checklist', () => {
  it('lists the six steps of keyless DNS filled from the values, the custom service account in the subject', () => {
    const steps = keylessPrerequisites(
      {
        cluster_issuer_acme_route53_service_account_name: 'my-dns',
        cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::123456789012:role/dns01',
      },
      { issuerUrl: 'https://oidc.example.com/c1' },
    );
    expect(steps).toHaveLength(6);
    expect(steps[0].title).toContain('1.15.0');
    expect(steps[1].command).toContain(
      'cloudgate oidc --issuer-url https://oidc.example.com/c1 --role-name dns01 --account 123456789012',
    );
    expect(steps[4].detail).toContain('system:serviceaccount:cert-manager:my-dns');
    expect(steps[5].command).toContain('--role-name dns01');
  });

  it('uses placeholders and the default service account when nothing is known yet', () => {
    const steps = keylessPrerequisites({});
    expect(steps[4].detail).toContain('system:serviceaccount:cert-manager:cert-manager-route53');
    expect(steps[1].detail).toContain('<ISSUER_URL>');
    expect(discoveryDoctorCommand('https://x.example')).toBe(
      'cloudgate doctor --only discovery,kube --issuer-url https://x.example',
    );
  });

  it("names the role's default service account and the variables in the platform's words; with --names spec, the aliases", () => {
    const steps = keylessPrerequisites({});
    expect(steps[4].detail).toContain('system:serviceaccount:cert-manager:cert-manager-route53');
    expect(steps[4].detail).toContain('cluster_issuer_acme_route53_role_arn');
    expect(steps.map((s) => `${s.title} ${s.detail}`).join('\n')).not.toMatch(/clouddnsb|certmgr/);
    const spec = keylessPrerequisites({}, { names: 'spec' });
    expect(spec[4].detail).toContain('system:serviceaccount:cert-manager:certmgr-clouddnsb');
    expect(spec[4].detail).toContain('cluster_issuer_acme_clouddnsb_role_arn');
  });
});
