import { describe, expect, it } from 'vitest';
import { detectProfile, neutralView, platformName, respell, respellFinding, toNeutral, toPlatform } from '../../../../src/core/config/platform-names.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';

describe('platform names', () => {
  it.each([
    ['cloud_helm_ingress_wildcard_domain', 'openstack_helm_ingress_wildcard_domain'],
    ['cloud_helm_ingress_secret_name', 'openstack_helm_ingress_secret_name'],
    ['platform_ingress_annotations', 'atmosphere_ingress_annotations'],
    ['ingress_global_annotations', 'ingress_global_annotations'],
    ['cluster_issuer_commercialca_access_token', 'cluster_issuer_venafi_access_token'],
    ['cluster_issuer_acme_clouddnsa_client_secret', 'cluster_issuer_acme_azuredns_client_secret'],
    ['cluster_issuer_acme_clouddnsb_role_arn', 'cluster_issuer_acme_route53_role_arn'],
    ['cluster_issuer_acme_dnsc_api_token', 'cluster_issuer_acme_cloudflare_api_token'],
    ['cluster_issuer_acme_dnsd_api_key', 'cluster_issuer_acme_godaddy_api_key'],
    ['cluster_issuer_acme_dnse_view', 'cluster_issuer_acme_infoblox_view'],
    ['cluster_issuer_acme_rfc2136_nameserver', 'cluster_issuer_acme_rfc2136_nameserver'],
  ])('%s is %s on the platform', (neutral, platform) => {
    expect(platformName(neutral)).toBe(platform);
  });

  it('detects the profile from the keys and the choosing values', () => {
    expect(detectProfile(['cluster_issuer_type', 'openstack_helm_ingress_secret_name'], 'inv.yml')).toBe('platform');
    expect(detectProfile(['cluster_issuer_type', 'cloud_helm_ingress_secret_name'], 'inv.yml')).toBe('spec');
    expect(detectProfile(['cluster_issuer_type', 'cluster_issuer_acme_email'], 'inv.yml')).toBeUndefined();
    // Both: the side with more names, the platform's on a tie; never an error (the other side's names are findings).
    expect(detectProfile(['cluster_issuer_acme_route53_region', 'cluster_issuer_acme_clouddnsb_hosted_zone_id'], 'inv.yml')).toBe('platform');
    expect(detectProfile(['cluster_issuer_acme_clouddnsb_region', 'cluster_issuer_acme_clouddnsb_hosted_zone_id', 'cluster_issuer_acme_route53_auth'], 'inv.yml')).toBe('spec');
    expect(detectProfile(['cluster_issuer_acme_solver'], 'inv.yml', { cluster_issuer_acme_solver: 'route53' })).toBe('platform');
  });

  it('says whether the names are stated: by --names or by a key only one set has', () => {
    const shared = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };
    expect(neutralView(shared, 'inv.yml')).toMatchObject({ profile: 'spec', stated: false });
    expect(neutralView(shared, 'inv.yml', 'platform')).toMatchObject({ profile: 'platform', stated: true });
    expect(neutralView({ ...shared, cluster_issuer_acme_route53_region: 'x' }, 'inv.yml')).toMatchObject({ profile: 'platform', stated: true });
    expect(neutralView({ ...shared, cluster_issuer_acme_clouddnsb_region: 'x' }, 'inv.yml')).toMatchObject({ profile: 'spec', stated: true });
  });

  it('translates the choosing values both ways, and round-trips', () => {
    const platform = {
      cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com', cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: 'kubernetes', cluster_issuer_acme_route53_region: 'eu-west-1',
      cluster_issuer_acme_route53_hosted_zone_id: 'Z1', cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::1:role/r',
    };
    const neutral = toNeutral(platform);
    expect(neutral).toMatchObject({ cluster_issuer_acme_solver: 'clouddnsb', cluster_issuer_acme_clouddnsb_auth: 'clusteroidc' });
    expect(toPlatform(neutral)).toEqual(platform);
    expect(toNeutral({ cluster_issuer_type: 'venafi' })).toEqual({ cluster_issuer_type: 'commercialca' });
  });

  it.each([
    ['not used with cluster_issuer_acme_solver: dnsc', 'not used with cluster_issuer_acme_solver: cloudflare'],
    ['cluster_issuer_commercialca_ca is required with cluster_issuer_type: commercialca but is not set.', 'cluster_issuer_venafi_ca is required with cluster_issuer_type: venafi but is not set.'],
    ['Commercialca auth (cluster_issuer_commercialca_access_token)', 'Venafi auth (cluster_issuer_venafi_access_token)'],
    ['keyless (clusteroidc) credentials need a role', 'keyless (kubernetes) credentials need a role'],
    ['DNS-01 via clouddnsa, clouddnsb, dnsd or dnse', 'DNS-01 via azuredns, route53, godaddy or infoblox'],
    ['Secret cert-manager/certmgr-issuer-clouddnsb-credentials and ServiceAccount certmgr-clouddnsb', 'Secret cert-manager/cert-manager-issuer-route53-credentials and ServiceAccount cert-manager-route53'],
    ['groupName dnse.certmgr.atmosphere.dev, solver dnse-wapi', 'groupName infoblox.cert-manager.atmosphere.dev, solver infoblox-wapi'],
    // Not a naming word: left alone.
    ['system:serviceaccount:<certmgr_namespace>:x, dnssec, cadnsc', 'system:serviceaccount:<certmgr_namespace>:x, dnssec, cadnsc'],
  ])('a message in the platform names respells values and object names too: %s', (neutral, platform) => {
    expect(respell(neutral, 'platform')).toBe(platform);
    expect(respell(neutral, 'spec')).toBe(neutral);
  });

  it('respellFinding covers the message, the advice and the variable', () => {
    const finding = { rule: 'unused-variable', variable: 'cluster_issuer_acme_clouddnsb_auth', message: 'cluster_issuer_acme_clouddnsb_auth is not used with cluster_issuer_type: commercialca.', advice: 'Set cluster_issuer_acme_solver: clouddnsb, or remove it.' };
    expect(respellFinding(finding, 'platform')).toEqual({
      rule: 'unused-variable', variable: 'cluster_issuer_acme_route53_auth',
      message: 'cluster_issuer_acme_route53_auth is not used with cluster_issuer_type: venafi.', advice: 'Set cluster_issuer_acme_solver: route53, or remove it.',
    });
  });

  it('render gives the same objects from platform names as from neutral names (platform object names)', () => {
    const neutral = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com', cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 'tok-1' };
    const fromPlatform = renderPlatform(toNeutral(toPlatform(neutral)), 'platform');
    expect(fromPlatform).toEqual(renderPlatform(neutral, 'platform'));
    expect(fromPlatform.objects.map((o) => o.object.metadata.name)).toContain('cloudflare-api-token');
  });
});
