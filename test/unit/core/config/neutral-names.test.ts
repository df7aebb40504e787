/**
 * The neutral aliases at the edges: every neutral alias maps to the platform's name or
 * value (written out here by hand, not derived), an input in aliases is translated and said so, an
 * inventory in aliases is read for what it means and reported with its rename.
 */
import { describe, expect, it } from 'vitest';
import {
  fromAliases,
  namesView,
  platformName,
  resolveProfile,
  respell,
  respellFinding,
  spelled,
  spelledValue,
  toProfile,
} from '../../../../src/core/config/neutral-names.js';
import { VARIABLES, variable, variableByAlias } from '../../../../src/core/config/variables.js';
import {
  aliasOfObjectName,
  ISSUER_TYPE_VALUES,
  ROUTE53_AUTH_MODES,
  SOLVER_VALUES,
} from '../../../../src/core/config/vocabulary.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';

describe('neutral aliases', () => {
  it.each([
    ['cloud_helm_ingress_wildcard_domain', 'openstack_helm_ingress_wildcard_domain'],
    ['cloud_helm_ingress_secret_name', 'openstack_helm_ingress_secret_name'],
    ['cloud_helm_ingress_cluster_issuer', 'openstack_helm_ingress_cluster_issuer'],
    ['platform_ingress_annotations', 'atmosphere_ingress_annotations'],
    ['platform_ingress_cluster_issuer', 'atmosphere_ingress_cluster_issuer'],
    ['platform_ingress_class_name', 'atmosphere_ingress_class_name'],
    ['cluster_issuer_commercialca_access_token', 'cluster_issuer_venafi_access_token'],
    ['cluster_issuer_acme_clouddnsa_client_secret', 'cluster_issuer_acme_azuredns_client_secret'],
    ['cluster_issuer_acme_clouddnsb_role_arn', 'cluster_issuer_acme_route53_role_arn'],
    ['cluster_issuer_acme_clouddnsb_secret_name', 'cluster_issuer_acme_route53_secret_name'],
    ['cluster_issuer_acme_dnsc_api_token', 'cluster_issuer_acme_cloudflare_api_token'],
    ['cluster_issuer_acme_dnsd_api_key', 'cluster_issuer_acme_godaddy_api_key'],
    ['cluster_issuer_acme_dnse_view', 'cluster_issuer_acme_infoblox_view'],
  ])("the alias %s is the platform's %s", (alias, name) => {
    expect(variableByAlias(alias)?.name).toBe(name);
    expect(variable(name)?.alias).toBe(alias);
    expect(platformName(alias)).toBe(name);
    expect(spelled(name, 'spec')).toBe(alias);
    expect(spelled(name, 'platform')).toBe(name);
  });

  it('names without a product word have no alias', () => {
    for (const name of [
      'ingress_global_annotations',
      'cluster_issuer_type',
      'cluster_issuer_acme_rfc2136_nameserver',
      'cluster_issuer_ca_certificate',
      'cluster_issuer_name',
    ]) {
      expect(variable(name)?.alias).toBeUndefined();
    }
  });

  it('every alias is one name, and no alias is a platform name', () => {
    const aliases = VARIABLES.flatMap((row) => (row.alias ? [row.alias] : []));
    expect(new Set(aliases).size).toBe(aliases.length);
    expect(aliases.filter((alias) => variable(alias))).toEqual([]);
  });

  it("the values of the choosing variables, in the platform's words, with their neutral aliases", () => {
    expect(ISSUER_TYPE_VALUES).toEqual(['acme', 'venafi', 'ca', 'self-signed', 'none']);
    expect(SOLVER_VALUES).toEqual(['http01', 'azuredns', 'rfc2136', 'route53', 'cloudflare', 'godaddy', 'infoblox']);
    expect(ROUTE53_AUTH_MODES).toEqual(['static', 'ambient', 'kubernetes']);
    const pairs = [
      ['cluster_issuer_type', 'venafi', 'commercialca'],
      ['cluster_issuer_acme_solver', 'azuredns', 'clouddnsa'],
      ['cluster_issuer_acme_solver', 'route53', 'clouddnsb'],
      ['cluster_issuer_acme_solver', 'cloudflare', 'dnsc'],
      ['cluster_issuer_acme_solver', 'godaddy', 'dnsd'],
      ['cluster_issuer_acme_solver', 'infoblox', 'dnse'],
      ['cluster_issuer_acme_route53_auth', 'kubernetes', 'clusteroidc'],
    ];
    for (const [name, word, alias] of pairs) expect(spelledValue(name, word, 'spec')).toBe(alias);
    expect(spelledValue('cluster_issuer_acme_solver', 'http01', 'spec')).toBe('http01');
    expect(spelledValue('cluster_issuer_acme_solver', 'route53', 'platform')).toBe('route53');
  });

  it.each([
    ['cert-manager-issuer-route53-credentials', 'certmgr-issuer-clouddnsb-credentials'],
    ['cert-manager-route53', 'certmgr-clouddnsb'],
    ['cloudflare-api-token', 'dnsc-api-token'],
    ['cert-manager-webhook-infoblox-wapi', 'certmgr-webhook-dnse-wapi'],
    ['godaddy.cert-manager.atmosphere.dev', 'dnsd.certmgr.atmosphere.dev'],
    ['webhook-godaddy:secret-reader', 'webhook-dnsd:secret-reader'],
    ['../../charts/godaddy-webhook/', '../../charts/dnsd-webhook/'],
    ['cert-manager-venafi-credentials', 'certmgr-commercialca-credentials'],
    // cert-manager's own namespace, and names without a product word, stay.
    ['cert-manager', 'cert-manager'],
    ['self-signed-ca', 'self-signed-ca'],
    ['atmosphere', 'atmosphere'],
  ])('the default object name %s is %s in the neutral words', (name, alias) => {
    expect(aliasOfObjectName(name)).toBe(alias);
  });

  it("an input in the aliases is read in the platform's words, and each translation is listed", () => {
    const { values, translated } = fromAliases({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'clouddnsb',
      cluster_issuer_acme_clouddnsb_auth: 'clusteroidc',
      cluster_issuer_acme_clouddnsb_region: 'eu-west-1',
      cloud_helm_ingress_wildcard_domain: 'cloud.example.com',
      namespace: 'openstack',
    });
    expect(values).toEqual({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: 'kubernetes',
      cluster_issuer_acme_route53_region: 'eu-west-1',
      openstack_helm_ingress_wildcard_domain: 'cloud.example.com',
      namespace: 'openstack',
    });
    expect(translated).toEqual([
      { from: 'cluster_issuer_acme_solver: clouddnsb', to: 'cluster_issuer_acme_solver: route53' },
      { from: 'cluster_issuer_acme_clouddnsb_auth', to: 'cluster_issuer_acme_route53_auth' },
      { from: 'cluster_issuer_acme_route53_auth: clusteroidc', to: 'cluster_issuer_acme_route53_auth: kubernetes' },
      { from: 'cluster_issuer_acme_clouddnsb_region', to: 'cluster_issuer_acme_route53_region' },
      { from: 'cloud_helm_ingress_wildcard_domain', to: 'openstack_helm_ingress_wildcard_domain' },
    ]);
    // Given both ways, the platform's name wins.
    expect(
      fromAliases({
        cluster_issuer_acme_dnsc_email: 'a@example.com',
        cluster_issuer_acme_cloudflare_email: 'b@example.com',
      }).values,
    ).toEqual({ cluster_issuer_acme_cloudflare_email: 'b@example.com' });
  });

  it('an inventory in the aliases: what it means is read, what the platform ignores is reported with its rename', () => {
    const view = namesView(
      {
        cluster_issuer_type: 'acme',
        cluster_issuer_acme_solver: 'clouddnsb',
        cluster_issuer_acme_clouddnsb_region: 'eu-west-1',
        cluster_issuer_acme_route53_hosted_zone_id: 'Z1',
        cluster_issuer_acme_clouddnsb_hosted_zone_id: 'Z2',
        other_role_variable: 1,
      },
      'inv.yml',
    );
    expect(view.profile).toBe('platform');
    expect(view.meant).toEqual({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_region: 'eu-west-1',
      cluster_issuer_acme_route53_hosted_zone_id: 'Z1',
      other_role_variable: 1,
    });
    // What the deployment reads: no alias names, and the alias value as written (its role has no task for it).
    expect(view.values).toEqual({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'clouddnsb',
      cluster_issuer_acme_route53_hosted_zone_id: 'Z1',
      other_role_variable: 1,
    });
    expect([...view.foreign]).toEqual(['cluster_issuer_acme_solver']);
    expect(view.naming.map((f) => [f.variable, f.advice])).toEqual([
      ['cluster_issuer_acme_solver', 'Write cluster_issuer_acme_solver: route53 ("cloudgate setup" offers to).'],
      [
        'cluster_issuer_acme_route53_region',
        'Rename cluster_issuer_acme_clouddnsb_region to cluster_issuer_acme_route53_region ("cloudgate setup" offers to).',
      ],
      [
        'cluster_issuer_acme_route53_hosted_zone_id',
        'Remove cluster_issuer_acme_clouddnsb_hosted_zone_id (the value of cluster_issuer_acme_route53_hosted_zone_id is the one deployed).',
      ],
    ]);
    expect(view.renames.map(({ from, to, value }) => ({ from, to, value }))).toEqual([
      { from: 'cluster_issuer_acme_solver', to: 'cluster_issuer_acme_solver', value: 'route53' },
      { from: 'cluster_issuer_acme_clouddnsb_region', to: 'cluster_issuer_acme_route53_region', value: undefined },
      { from: 'cluster_issuer_acme_clouddnsb_hosted_zone_id', to: undefined, value: undefined },
    ]);
    expect(view.keys.cluster_issuer_acme_route53_region).toBe('cluster_issuer_acme_clouddnsb_region');
  });

  it("with --names spec the aliases are the words read, and the platform's names are the ones reported", () => {
    const view = namesView(
      {
        cluster_issuer_acme_solver: 'route53',
        cluster_issuer_acme_clouddnsb_region: 'eu-west-1',
        cluster_issuer_acme_route53_auth: 'static',
      },
      'inv.yml',
      'spec',
    );
    expect(view.meant).toEqual({
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_region: 'eu-west-1',
      cluster_issuer_acme_route53_auth: 'static',
    });
    expect(view.values).toEqual({
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_region: 'eu-west-1',
    });
    expect([...view.foreign]).toEqual(['cluster_issuer_acme_solver']);
    expect(view.naming.map((f) => f.advice)).toEqual([
      'Write cluster_issuer_acme_solver: clouddnsb ("cloudgate setup" offers to).',
      'Rename cluster_issuer_acme_route53_auth to cluster_issuer_acme_clouddnsb_auth ("cloudgate setup" offers to).',
    ]);
    expect(
      toProfile(
        { cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_region: 'x', cluster_issuer_type: 'acme' },
        'spec',
      ),
    ).toEqual({
      cluster_issuer_acme_solver: 'clouddnsb',
      cluster_issuer_acme_clouddnsb_region: 'x',
      cluster_issuer_type: 'acme',
    });
  });

  it('--names takes platform (the default) or spec', () => {
    expect(resolveProfile(undefined)).toBe('platform');
    expect(resolveProfile('spec')).toBe('spec');
    expect(() => resolveProfile('atmosphere')).toThrow(/--names "atmosphere" is not one of: platform, spec/);
  });

  it("with --names spec a text names each variable by its alias, and leaves cert-manager's own words", () => {
    const text =
      'cluster_issuer_acme_route53_role_arn is required with cluster_issuer_acme_solver: route53 (dns01.route53 in namespace cert-manager).';
    expect(respell(text, 'platform')).toBe(text);
    expect(respell(text, 'spec')).toBe(
      'cluster_issuer_acme_clouddnsb_role_arn is required with cluster_issuer_acme_solver: route53 (dns01.route53 in namespace cert-manager).',
    );
    const finding = {
      rule: 'required',
      variable: 'cluster_issuer_venafi_zone',
      message: 'cluster_issuer_venafi_zone is not set.',
      advice: 'Set cluster_issuer_venafi_zone.',
    };
    expect(respellFinding(finding, 'spec')).toEqual({
      rule: 'required',
      variable: 'cluster_issuer_commercialca_zone',
      message: 'cluster_issuer_commercialca_zone is not set.',
      advice: 'Set cluster_issuer_commercialca_zone.',
    });
    expect(respellFinding(finding, 'platform')).toBe(finding);
  });

  it("render with --names spec names the objects in the neutral words; by default in the platform's", () => {
    const values = {
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: 'tok-1',
    };
    expect(renderPlatform(values).objects.map((o) => o.object.metadata.name)).toEqual([
      'self-signed',
      'cloudflare-api-token',
      'atmosphere',
    ]);
    expect(renderPlatform(values, 'spec').objects.map((o) => o.object.metadata.name)).toEqual([
      'self-signed',
      'dnsc-api-token',
      'atmosphere',
    ]);
  });
});
