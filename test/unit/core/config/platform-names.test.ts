import { describe, expect, it } from 'vitest';
import { detectProfile, platformName, toNeutral, toPlatform } from '../../../../src/core/config/platform-names.js';
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

  it('detects the profile from the keys, and refuses a mix', () => {
    expect(detectProfile(['cluster_issuer_type', 'openstack_helm_ingress_secret_name'], 'inv.yml')).toBe('platform');
    expect(detectProfile(['cluster_issuer_type', 'cloud_helm_ingress_secret_name'], 'inv.yml')).toBe('spec');
    expect(detectProfile(['cluster_issuer_type', 'cluster_issuer_acme_email'], 'inv.yml')).toBeUndefined();
    expect(() => detectProfile(['cluster_issuer_acme_route53_region', 'cluster_issuer_acme_clouddnsb_hosted_zone_id'], 'inv.yml')).toThrow(/mixes/);
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

  it('render gives the same objects from platform names as from neutral names (platform object names)', () => {
    const neutral = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com', cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 'tok-1' };
    const fromPlatform = renderPlatform(toNeutral(toPlatform(neutral)), 'platform');
    expect(fromPlatform).toEqual(renderPlatform(neutral, 'platform'));
    expect(fromPlatform.objects.map((o) => o.object.metadata.name)).toContain('cloudflare-api-token');
  });
});
