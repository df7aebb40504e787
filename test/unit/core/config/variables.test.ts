import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/config/validate.js';
import { VARIABLES, choicesOf, usesKeylessDns, variable, variablesFor } from '../../../../src/core/config/variables.js';
import { stepForVariable } from '../../../../src/core/setup/wizard-flow.js';

const names = (values: Record<string, unknown>) => variablesFor(values).map((v) => v.name);

describe('the variables table', () => {
  it('has one row per name, each with help text and a section', () => {
    const all = VARIABLES.map((v) => v.name);
    expect(new Set(all).size).toBe(all.length);
    for (const row of VARIABLES) {
      expect(row.help.length, row.name).toBeGreaterThan(5);
      expect(row.section, row.name).not.toBe('');
      if (row.type === 'enum') expect(row.values?.length, row.name).toBeGreaterThan(1);
      if (row.valueHelp) expect(Object.keys(row.valueHelp).sort()).toEqual([...(row.values ?? [])].sort());
    }
  });

  it('covers the variables of every DNS provider and of the commercial CA', () => {
    for (const provider of ['azuredns', 'rfc2136', 'route53', 'cloudflare', 'godaddy', 'infoblox', 'venafi']) {
      expect(
        VARIABLES.some((v) => v.name.includes(`_${provider}_`)),
        provider,
      ).toBe(true);
    }
    expect(variable('cluster_issuer_acme_route53_secret_name')?.default).toBe(
      'cert-manager-issuer-route53-credentials',
    );
    expect(variable('cluster_issuer_acme_route53_service_account_name')?.default).toBe('cert-manager-route53');
    expect(variable('cluster_issuer_acme_route53_auth')?.default).toBe('static');
    expect(variable('cluster_issuer_type')?.default).toBe('acme');
    expect(variable('ingress_global_annotations')?.deprecatedBy).toBe('atmosphere_ingress_annotations');
    expect(variable('cluster_issuer_venafi_password')?.legacy).toBe(true);
    expect(variable('cluster_issuer_ca_private_key')?.secret).toBe(true);
    expect(variable('no_such_variable')).toBeUndefined();
  });

  it('defaults to ACME with HTTP-01 and static route53 credentials', () => {
    expect(choicesOf({})).toEqual({ issuer: 'acme', solver: 'http01', auth: 'static' });
    const acme = names({});
    expect(acme).toContain('cluster_issuer_acme_email');
    expect(acme.some((n) => n.includes('rfc2136'))).toBe(false);
    expect(acme.some((n) => n.includes('venafi'))).toBe(false);
  });

  it('selects the rows of the chosen solver and route53 auth mode', () => {
    const rfc = names({ cluster_issuer_acme_solver: 'rfc2136' });
    expect(rfc).toContain('cluster_issuer_acme_rfc2136_nameserver');
    expect(rfc.some((n) => n.includes('route53'))).toBe(false);

    const oidc = names({ cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_auth: 'kubernetes' });
    expect(oidc).toContain('cluster_issuer_acme_route53_role_arn');
    expect(oidc).toContain('cluster_issuer_acme_route53_service_account_name');
    expect(oidc).not.toContain('cluster_issuer_acme_route53_access_key_id');

    const ca = names({ cluster_issuer_type: 'ca', cluster_issuer_acme_solver: 'rfc2136' });
    expect(ca).toEqual(expect.arrayContaining(['cluster_issuer_ca_certificate', 'cluster_issuer_ca_private_key']));
    expect(ca.some((n) => n.startsWith('cluster_issuer_acme_'))).toBe(false);
    expect(names({ cluster_issuer_type: 'none' })).toContain('openstack_helm_ingress_secret_name');
  });
});

describe('the neutral alias column', () => {
  const ALIAS_WORDS: [RegExp, string][] = [
    [/^openstack_helm_ingress_/, 'cloud_helm_ingress_'],
    [/^atmosphere_ingress_/, 'platform_ingress_'],
    [/_venafi_/, '_commercialca_'],
    [/_azuredns_/, '_clouddnsa_'],
    [/_route53_/, '_clouddnsb_'],
    [/_cloudflare_/, '_dnsc_'],
    [/_godaddy_/, '_dnsd_'],
    [/_infoblox_/, '_dnse_'],
  ];
  it('gives every row with a product word its neutral alias, and no other row one', () => {
    for (const row of VARIABLES) {
      const alias = ALIAS_WORDS.reduce((name, [from, to]) => name.replace(from, to), row.name);
      expect(row.alias, row.name).toBe(alias === row.name ? undefined : alias);
    }
  });
});

describe('what the platform reads beyond the certificate role', () => {
  it("the ACME private-CA flag is read with a supplied wildcard too (the OpenStack client and SDK configs trust the hosts' CA store then)", () => {
    expect(names({ cluster_issuer_type: 'none', openstack_helm_ingress_secret_name: 'wildcard-certs' })).toContain(
      'cluster_issuer_acme_private_ca',
    );
    expect(
      validate({
        cluster_issuer_type: 'none',
        openstack_helm_ingress_secret_name: 'wildcard-certs',
        cluster_issuer_acme_private_ca: true,
      }).filter((f) => f.rule === 'unused-variable'),
    ).toEqual([]);
    for (const type of ['ca', 'venafi', 'self-signed'])
      expect(names({ cluster_issuer_type: type })).not.toContain('cluster_issuer_acme_private_ca');
  });
});

describe('what the role reads in each route53 auth mode (its tasks/type/acme/solver/route53.yml)', () => {
  const p = 'cluster_issuer_acme_route53_';
  const READS: Record<string, string[]> = {
    // The role adds `role` after static keys too: the ARN is read in every mode.
    static: ['auth', 'region', 'hosted_zone_id', 'role_arn', 'access_key_id', 'secret_access_key', 'secret_name'],
    ambient: ['auth', 'region', 'hosted_zone_id', 'role_arn'],
    kubernetes: ['auth', 'region', 'hosted_zone_id', 'role_arn', 'service_account_name'],
  };
  for (const [auth, read] of Object.entries(READS)) {
    it(`${auth}: the table applies exactly what the role reads, and calls none of it unused`, () => {
      const values = { cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'route53', [`${p}auth`]: auth };
      expect(
        names(values)
          .filter((n) => n.startsWith(p))
          .sort(),
      ).toEqual(read.map((s) => `${p}${s}`).sort());
      const all = Object.fromEntries(
        VARIABLES.filter((v) => v.name.startsWith(p) && v.name !== `${p}auth`).map((v) => [
          v.name,
          v.name.endsWith('role_arn') ? 'arn:aws:iam::123456789012:role/dns' : 'x',
        ]),
      );
      const unused = validate({ ...values, ...all })
        .filter((f) => f.rule === 'unused-variable')
        .map((f) => f.variable);
      expect(unused.sort()).toEqual(
        Object.keys(all)
          .filter((n) => !read.includes(n.slice(p.length)))
          .sort(),
      );
    });
  }
});

describe('what the platform needs without a default', () => {
  const NEEDED = [
    'cluster_issuer_acme_rfc2136_tsig_algorithm',
    'cluster_issuer_acme_route53_region',
    'cluster_issuer_acme_route53_hosted_zone_id',
    'cluster_issuer_venafi_tpp_ca_bundle',
  ];

  it('marks them, with no default and help that says so', () => {
    expect(VARIABLES.filter((v) => v.platformNeeds).map((v) => v.name)).toEqual(NEEDED);
    for (const name of NEEDED) {
      expect(variable(name)?.default, name).toBeUndefined();
      expect(variable(name)?.help, name).toContain('needed by the platform');
      expect(variable(name)?.help, name).not.toMatch(/unset: /);
    }
    // The route53 region and zone whatever the auth mode.
    expect(variable('cluster_issuer_acme_route53_region')?.appliesWhen).toEqual({
      issuer: ['acme'],
      solver: ['route53'],
    });
    expect(variable('cluster_issuer_acme_route53_hosted_zone_id')?.appliesWhen).toEqual({
      issuer: ['acme'],
      solver: ['route53'],
    });
  });

  it('the walkthrough offers no TSIG algorithm as a default', () => {
    const step = stepForVariable(variable('cluster_issuer_acme_rfc2136_tsig_algorithm')!);
    // None is labelled the default; the one highlighted first is the one recommended for new keys.
    expect(step.choices!.map((c) => c.label)).toEqual(['HMACSHA256', 'HMACSHA512', 'HMACSHA1', 'HMACMD5']);
    expect(step.choices!.map((c) => c.help).join(' ')).not.toMatch(/default/i);
  });
});

describe('usesKeylessDns', () => {
  it('is true only for ACME with DNS-01 through route53 and auth kubernetes', () => {
    const keyless = { cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_auth: 'kubernetes' };
    expect(usesKeylessDns(keyless)).toBe(true); // acme is the default issuer
    expect(usesKeylessDns({ ...keyless, cluster_issuer_type: 'ca' })).toBe(false); // a leftover solver under another issuer
    expect(usesKeylessDns({ ...keyless, cluster_issuer_acme_route53_auth: 'static' })).toBe(false);
    expect(usesKeylessDns({ cluster_issuer_acme_route53_auth: 'kubernetes' })).toBe(false);
  });
});

describe("every variable the platform's role reads", () => {
  // Read from the role's defaults and task files, written down by hand.
  const ROLE = [
    'atmosphere_ingress_cluster_issuer',
    'atmosphere_ingress_class_name',
    'openstack_helm_ingress_cluster_issuer',
    'cluster_issuer_name',
    'cluster_issuer_type',
    'cluster_issuer_acme_private_ca',
    'cluster_issuer_acme_server',
    'cluster_issuer_acme_email',
    'cluster_issuer_acme_private_key_secret_name',
    'cluster_issuer_acme_solver',
    'cluster_issuer_acme_http01_ingress_class',
    'cluster_issuer_acme_cloudflare_secret_name',
    'cluster_issuer_acme_cloudflare_email',
    'cluster_issuer_acme_cloudflare_api_token',
    'cluster_issuer_venafi_secret_name',
    'cluster_issuer_venafi_ca',
    'cluster_issuer_venafi_access_token',
    'cluster_issuer_venafi_username',
    'cluster_issuer_venafi_password',
    'cluster_issuer_venafi_zone',
    'cluster_issuer_venafi_tpp_url',
    'cluster_issuer_venafi_tpp_ca_bundle',
    'cluster_issuer_acme_rfc2136_secret_name',
    'cluster_issuer_acme_rfc2136_nameserver',
    'cluster_issuer_acme_rfc2136_tsig_algorithm',
    'cluster_issuer_acme_rfc2136_tsig_key_name',
    'cluster_issuer_acme_rfc2136_tsig_secret_key',
    'cluster_issuer_acme_route53_auth',
    'cluster_issuer_acme_route53_secret_name',
    'cluster_issuer_acme_route53_service_account_name',
    'cluster_issuer_acme_route53_region',
    'cluster_issuer_acme_route53_hosted_zone_id',
    'cluster_issuer_acme_route53_role_arn',
    'cluster_issuer_acme_route53_access_key_id',
    'cluster_issuer_acme_route53_secret_access_key',
    ...['godaddy', 'infoblox'].flatMap((w) =>
      [
        'helm_release_name',
        'helm_chart_path',
        'helm_chart_ref',
        'helm_release_namespace',
        'helm_values',
        'group_name',
        'secret_name',
        'role_name',
        'role_binding_name',
        'service_account_name',
      ].map((s) => `cluster_issuer_acme_${w}_${s}`),
    ),
    'cluster_issuer_acme_godaddy_is_production',
    'cluster_issuer_acme_godaddy_ttl',
    'cluster_issuer_acme_godaddy_api_key',
    'cluster_issuer_acme_godaddy_secret_key',
    'cluster_issuer_acme_infoblox_view',
    'cluster_issuer_acme_infoblox_host',
    'cluster_issuer_acme_infoblox_username',
    'cluster_issuer_acme_infoblox_password',
    'cluster_issuer_ca_secret_name',
    'cluster_issuer_ca_certificate',
    'cluster_issuer_ca_private_key',
    'cluster_issuer_self_signed_certificate_name',
    'cluster_issuer_self_signed_secret_name',
    'cluster_issuer_acme_azuredns_secret_name',
    'cluster_issuer_acme_azuredns_environment',
    'cluster_issuer_acme_azuredns_client_id',
    'cluster_issuer_acme_azuredns_client_secret',
    'cluster_issuer_acme_azuredns_subscription_id',
    'cluster_issuer_acme_azuredns_tenant_id',
    'cluster_issuer_acme_azuredns_resourcegroup_name',
    'cluster_issuer_acme_azuredns_hostedzone_name',
  ];

  it('has a row, under its platform name', () => {
    const platformNames = new Set(VARIABLES.map((v) => v.name));
    for (const name of ROLE) expect(platformNames.has(name), name).toBe(true);
  });

  it("is never called unknown by the inventory rules, in the platform's names", () => {
    const values = Object.fromEntries(ROLE.map((name) => [name, 'x']));
    expect(validate(values).filter((f) => f.rule === 'unknown-variable')).toEqual([]);
  });

  it("keeps asking only what an operator usually sets: the role's object names are not asked", () => {
    for (const suffix of ['_secret_name', '_role_name', '_helm_release_name', '_group_name', '_environment', '_ttl']) {
      for (const row of VARIABLES.filter(
        (v) =>
          v.name.endsWith(suffix) &&
          !['cluster_issuer_acme_route53_secret_name', 'openstack_helm_ingress_secret_name'].includes(v.name),
      ))
        expect(row.asked, row.name).toBe(false);
    }
  });
});
