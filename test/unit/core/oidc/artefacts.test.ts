import { describe, expect, it } from 'vitest';
import { buildOidcArtefacts, FILES, renderOidcText, type OidcInputs } from '../../../../src/core/oidc/artefacts.js';

const inputs = (overrides: Partial<OidcInputs> = {}): OidcInputs => ({
  issuerUrl: 'https://oidc.example.com/c1',
  account: '123456789012',
  partition: 'aws',
  roleName: 'dns01',
  namespace: 'cert-manager',
  serviceAccount: 'cert-manager-route53',
  stsAudience: 'sts.amazonaws.com',
  ...overrides,
});

describe('the artefacts of keyless DNS credentials', () => {
  it('ties the trust policy to the issuer, the service account and the audience', () => {
    const a = buildOidcArtefacts(inputs());
    expect(a.providerArn).toBe('arn:aws:iam::123456789012:oidc-provider/oidc.example.com/c1');
    expect(a.roleArn).toBe('arn:aws:iam::123456789012:role/dns01');
    expect(a.serviceAccount.subject).toBe('system:serviceaccount:cert-manager:cert-manager-route53');
    const trust = JSON.stringify(a.files[FILES.trust]);
    expect(trust).toContain('"oidc.example.com/c1:sub":"system:serviceaccount:cert-manager:cert-manager-route53"');
    expect(trust).toContain('"oidc.example.com/c1:aud":"sts.amazonaws.com"');
  });

  it("names the inventory variables in the platform's words (the aliases with --names spec), and a service account only when it is not the default", () => {
    const platform = renderOidcText(buildOidcArtefacts(inputs({ serviceAccount: 'cert-manager-route53' })));
    expect(platform).toContain('Inventory: cluster_issuer_acme_route53_auth: kubernetes');
    // Our lines (the files quoted below them, indented, keep their own comments).
    expect(
      platform
        .split('\n')
        .filter((l) => !l.startsWith('    '))
        .join('\n'),
    ).not.toMatch(/clouddnsb|clusteroidc|certmgr/);
    expect(platform).not.toContain('service_account_name');
    const spec = renderOidcText(buildOidcArtefacts(inputs({ serviceAccount: 'certmgr-clouddnsb', names: 'spec' })));
    expect(spec).toContain('Inventory: cluster_issuer_acme_clouddnsb_auth: kubernetes');
    expect(spec).not.toContain('service_account_name');
    const custom = renderOidcText(buildOidcArtefacts(inputs({ serviceAccount: 'dns-sa' })));
    expect(custom).toContain('cluster_issuer_acme_route53_service_account_name: dns-sa');
  });
});
