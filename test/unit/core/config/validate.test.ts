import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/config/validate.js';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import { loadYaml } from '../../../../src/core/inventory/yaml-load.js';
import { createTestCA } from '../../../helpers/pki.js';

const ACME = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };
const RFC = {
  ...ACME,
  cluster_issuer_acme_solver: 'rfc2136',
  cluster_issuer_acme_rfc2136_nameserver: 'ns1.example.com:53',
  cluster_issuer_acme_rfc2136_tsig_key_name: 'cert-manager',
  cluster_issuer_acme_rfc2136_tsig_secret_key: 'c2VjcmV0LXRzaWcta2V5',
};
const ROUTE53 = {
  ...ACME,
  cluster_issuer_acme_solver: 'route53',
  cluster_issuer_acme_route53_auth: 'static',
  cluster_issuer_acme_route53_access_key_id: 'AKIAEXAMPLE',
  cluster_issuer_acme_route53_secret_access_key: 'very-secret-access-key',
};
const OIDC = {
  ...ACME,
  cluster_issuer_acme_solver: 'route53',
  cluster_issuer_acme_route53_auth: 'kubernetes',
  cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::123456789012:role/cert-manager/dns01',
};
const PEM_CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const PEM_KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';
const COMMERCIAL = {
  cluster_issuer_type: 'venafi',
  cluster_issuer_venafi_ca: PEM_CERT,
  cluster_issuer_venafi_zone: 'Certificates\\Cloud',
  cluster_issuer_venafi_tpp_url: 'https://tpp.example.com/vedsdk',
  cluster_issuer_venafi_access_token: 'token-value-123',
};
const CA = {
  cluster_issuer_type: 'ca',
  cluster_issuer_ca_certificate: PEM_CERT,
  cluster_issuer_ca_private_key: PEM_KEY,
};
const SUPPLIED = { cluster_issuer_type: 'none', openstack_helm_ingress_secret_name: 'wildcard-certs' };

const rules = (values: Record<string, unknown>) => validate(values).map((f) => f.rule);

/** [rule, values that break it, values that satisfy it] */
const CASES: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    'wildcard-domain',
    { ...RFC, openstack_helm_ingress_wildcard_domain: '*.cloud.example.com' },
    { ...RFC, openstack_helm_ingress_wildcard_domain: 'cloud.example.com' },
  ],
  [
    'wildcard-domain',
    { ...RFC, openstack_helm_ingress_wildcard_domain: 'https://cloud.example.com' },
    { ...RFC, openstack_helm_ingress_wildcard_domain: 'example.com' },
  ],
  [
    'wildcard-domain',
    { ...RFC, openstack_helm_ingress_wildcard_domain: 'not a domain' },
    { ...RFC, openstack_helm_ingress_wildcard_domain: 'a-b.example.org' },
  ],
  ['secret-name-requires-none', { ...ACME, openstack_helm_ingress_secret_name: 'wildcard-certs' }, SUPPLIED],
  ['none-without-certificate', { cluster_issuer_type: 'none' }, SUPPLIED],
  ['secret-name', { ...SUPPLIED, openstack_helm_ingress_secret_name: 'Wildcard_Certs' }, SUPPLIED],
  ['issuer-type', { cluster_issuer_type: 'letsencrypt' }, CA],
  ['issuer-type', { ...ACME, cluster_issuer_type: 'ACME' }, ACME],
  [
    'acme-solver',
    { ...ACME, cluster_issuer_acme_solver: 'digitalocean' },
    { ...ACME, cluster_issuer_acme_solver: 'http01' },
  ],
  ['acme-email-required', { cluster_issuer_type: 'acme' }, ACME],
  // Defined but empty: cert-manager registers the account without a contact (a warning, not the role's stop).
  ['acme-email-empty', { ...RFC, cluster_issuer_acme_email: '' }, RFC],
  ['invalid-email', { ...ACME, cluster_issuer_acme_email: 'ops.example.com' }, ACME],
  [
    'acme-server-https',
    { ...ACME, cluster_issuer_acme_server: 'http://acme.internal/directory' },
    { ...ACME, cluster_issuer_acme_server: 'https://acme.internal/directory' },
  ],
  [
    'invalid-url',
    { ...ACME, cluster_issuer_acme_server: 'acme.internal' },
    { ...ACME, cluster_issuer_acme_server: 'https://acme.internal/directory' },
  ],
  [
    'acme-private-ca-without-server',
    { ...ACME, cluster_issuer_acme_private_ca: true },
    { ...ACME, cluster_issuer_acme_private_ca: true, cluster_issuer_acme_server: 'https://acme.internal/dir' },
  ],
  [
    'bool-quoted',
    { ...ACME, cluster_issuer_acme_private_ca: 'true', cluster_issuer_acme_server: 'https://a.example/d' },
    { ...ACME, cluster_issuer_acme_private_ca: false },
  ],
  [
    'invalid-type',
    { ...ACME, cluster_issuer_acme_private_ca: 'maybe' },
    { ...ACME, cluster_issuer_acme_private_ca: false },
  ],
  [
    'wildcard-needs-dns01',
    { ...ACME, openstack_helm_ingress_wildcard_domain: 'cloud.example.com' },
    { ...RFC, openstack_helm_ingress_wildcard_domain: 'cloud.example.com' },
  ],
  ['required', { ...RFC, cluster_issuer_acme_rfc2136_tsig_key_name: undefined }, RFC],
  [
    'required',
    { ...ACME, cluster_issuer_acme_solver: 'azuredns' },
    {
      ...ACME,
      cluster_issuer_acme_solver: 'azuredns',
      cluster_issuer_acme_azuredns_client_id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      cluster_issuer_acme_azuredns_client_secret: 'secret-1',
      cluster_issuer_acme_azuredns_subscription_id: '99999999-8888-7777-6666-555555555555',
      cluster_issuer_acme_azuredns_tenant_id: '11111111-2222-3333-4444-555555555555',
      cluster_issuer_acme_azuredns_resourcegroup_name: 'rg',
      cluster_issuer_acme_azuredns_hostedzone_name: 'example.com',
    },
  ],
  // Absent: the role stops. (Defined but null is the render's: an empty credential, refused at each challenge.)
  ['required', { ...ROUTE53, cluster_issuer_acme_route53_secret_access_key: undefined }, ROUTE53],
  [
    'required',
    { ...ACME, cluster_issuer_acme_solver: 'infoblox', cluster_issuer_acme_infoblox_view: 'default' },
    {
      ...ACME,
      cluster_issuer_acme_solver: 'infoblox',
      cluster_issuer_acme_infoblox_view: 'default',
      cluster_issuer_acme_infoblox_host: 'dns.example.com',
      cluster_issuer_acme_infoblox_username: 'u',
      cluster_issuer_acme_infoblox_password: 'pass-word',
    },
  ],
  // cert-manager's own rule: a host alone is accepted (it adds :53), no host is not.
  [
    'rfc2136-nameserver',
    { ...RFC, cluster_issuer_acme_rfc2136_nameserver: ':53' },
    { ...RFC, cluster_issuer_acme_rfc2136_nameserver: 'ns1.example.com' },
  ],
  [
    'rfc2136-nameserver',
    { ...RFC, cluster_issuer_acme_rfc2136_nameserver: '2001:db8::1:53' },
    { ...RFC, cluster_issuer_acme_rfc2136_nameserver: '[2001:db8::1]:53' },
  ],
  [
    'rfc2136-nameserver',
    { ...RFC, cluster_issuer_acme_rfc2136_nameserver: '[2001:db8::1' },
    { ...RFC, cluster_issuer_acme_rfc2136_nameserver: '[2001:db8::1]' },
  ],
  [
    'rfc2136-tsig-algorithm',
    { ...RFC, cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA384' },
    { ...RFC, cluster_issuer_acme_rfc2136_tsig_algorithm: 'hmacsha256' },
  ],
  ['route53-auth', { ...ROUTE53, cluster_issuer_acme_route53_auth: 'irsa' }, ROUTE53],
  ['route53-role-arn-required', { ...OIDC, cluster_issuer_acme_route53_role_arn: undefined }, OIDC],
  ['route53-role-arn', { ...OIDC, cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::1234:role/x' }, OIDC],
  [
    'route53-role-arn',
    {
      ...OIDC,
      cluster_issuer_acme_route53_auth: 'ambient',
      cluster_issuer_acme_route53_role_arn: 'cert-manager-dns01',
    },
    { ...OIDC, cluster_issuer_acme_route53_auth: 'ambient', cluster_issuer_acme_route53_role_arn: undefined },
  ],
  [
    'cloudflare-email-redundant',
    {
      ...ACME,
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: 'tok-123',
      cluster_issuer_acme_cloudflare_email: 'OPS@example.com',
    },
    {
      ...ACME,
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: 'tok-123',
      cluster_issuer_acme_cloudflare_email: 'dns@example.com',
    },
  ],
  ['route53-kubernetes-prerequisites', OIDC, ROUTE53],
  ['infoblox-webhook', { ...ACME, cluster_issuer_acme_solver: 'infoblox' }, RFC],
  [
    'godaddy-limits',
    {
      ...ACME,
      cluster_issuer_acme_solver: 'godaddy',
      cluster_issuer_acme_godaddy_api_key: 'key-1',
      cluster_issuer_acme_godaddy_secret_key: 'sec-1',
    },
    RFC,
  ],
  [
    'venafi-auth',
    { ...COMMERCIAL, cluster_issuer_venafi_username: 'u', cluster_issuer_venafi_password: 'p-1234' },
    COMMERCIAL,
  ],
  ['venafi-auth', { ...COMMERCIAL, cluster_issuer_venafi_access_token: undefined }, COMMERCIAL],
  [
    'venafi-auth',
    { ...COMMERCIAL, cluster_issuer_venafi_access_token: undefined, cluster_issuer_venafi_username: 'u' },
    COMMERCIAL,
  ],
  [
    'venafi-legacy-auth',
    {
      ...COMMERCIAL,
      cluster_issuer_venafi_access_token: '',
      cluster_issuer_venafi_username: 'u',
      cluster_issuer_venafi_password: 'p-1234',
    },
    COMMERCIAL,
  ],
  ['required', { ...COMMERCIAL, cluster_issuer_venafi_zone: undefined }, COMMERCIAL],
  ['url-https', { ...COMMERCIAL, cluster_issuer_venafi_tpp_url: 'http://tpp.example.com/vedsdk' }, COMMERCIAL],
  ['required', { cluster_issuer_type: 'ca', cluster_issuer_ca_certificate: PEM_CERT }, CA],
  ['pem-format', { ...CA, cluster_issuer_ca_private_key: 'not a key' }, CA],
  ['pem-format', { ...CA, cluster_issuer_ca_certificate: 'MIIB...' }, CA],
  ['self-signed', { cluster_issuer_type: 'self-signed' }, CA],
  [
    'annotation-key',
    { ...CA, atmosphere_ingress_annotations: { 'cert-manager.io/subject-organisation': 'X' } },
    {
      ...CA,
      atmosphere_ingress_annotations: {
        'cert-manager.io/subject-organizations': 'X',
        'cert-manager.io/subject-countries': 'DE',
      },
    },
  ],
  ['annotation-key', { ...CA, atmosphere_ingress_annotations: { 'example.com/subject-countries': 'DE' } }, CA],
  [
    'annotation-value',
    { ...CA, atmosphere_ingress_annotations: { 'cert-manager.io/subject-countries': ['DE'] } },
    { ...CA, atmosphere_ingress_annotations: { 'cert-manager.io/subject-countries': 'DE' } },
  ],
  ['invalid-type', { ...CA, atmosphere_ingress_annotations: 'cert-manager.io/subject-countries=DE' }, CA],
  [
    'deprecated-variable',
    { ...CA, ingress_global_annotations: { 'cert-manager.io/subject-countries': 'DE' } },
    { ...CA, atmosphere_ingress_annotations: { 'cert-manager.io/subject-countries': 'DE' } },
  ],
  [
    'annotations-conflict',
    {
      ...CA,
      ingress_global_annotations: { 'cert-manager.io/subject-countries': 'DE' },
      atmosphere_ingress_annotations: { 'cert-manager.io/subject-countries': 'FR' },
    },
    { ...CA, atmosphere_ingress_annotations: { 'cert-manager.io/subject-countries': 'FR' } },
  ],
  ['unused-variable', { ...RFC, cluster_issuer_acme_cloudflare_api_token: 'tok-123' }, RFC],
  ['unused-variable', { ...CA, cluster_issuer_acme_email: 'ops@example.com' }, CA],
  // The role ARN is read with static keys too (assumed after them): not unused there, but the keyless service account is.
  [
    'unused-variable',
    { ...ROUTE53, cluster_issuer_acme_route53_service_account_name: 'cert-manager-route53' },
    { ...ROUTE53, cluster_issuer_acme_route53_role_arn: 'arn:aws:iam::123456789012:role/x' },
  ],
  ['unknown-variable', { ...RFC, cluster_issuer_acme_rfc2136_tsig_keyname: 'x' }, RFC],
];

describe('validate', () => {
  it.each(CASES.map(([rule, bad, good], i) => [`${rule} #${i}`, rule, bad, good] as const))(
    '%s: bad case reports, good case does not',
    (_label, rule, bad, good) => {
      expect(rules(bad)).toContain(rule);
      expect(rules(good)).not.toContain(rule);
    },
  );

  it('finds nothing wrong in a clean configuration of each issuer', () => {
    const ca = createTestCA('validate test CA');
    const real = {
      cluster_issuer_venafi_ca: ca.cert,
      cluster_issuer_ca_certificate: ca.cert,
      cluster_issuer_ca_private_key: ca.key,
    };
    const withReal = (v: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k in real ? real[k as keyof typeof real] : x]));
    for (const values of [ACME, RFC, ROUTE53, OIDC, COMMERCIAL, CA, SUPPLIED].map(withReal)) {
      const errors = validate(values).filter((f) => f.severity !== 'info');
      expect(errors, JSON.stringify(values)).toEqual([]);
    }
  });

  it('suggests the variable meant by a typo', () => {
    const [f] = validate({ ...RFC, cluster_issuer_acme_rfc2136_tsig_keyname: 'x' }).filter(
      (x) => x.rule === 'unknown-variable',
    );
    expect(f.advice).toContain('cluster_issuer_acme_rfc2136_tsig_key_name');
    expect(f.severity).toBe('warning');
  });

  it('suggests by the one rule of closest.ts: a third of the name may differ', () => {
    const [f] = validate({ ...ACME, cluster_issuer_acme_email_adress: 'ops@example.com' }).filter(
      (x) => x.rule === 'unknown-variable',
    );
    expect(f.advice).toBe('Did you mean cluster_issuer_acme_email?');
  });

  it('suggests an annotation key by its last part, else by the same rule', () => {
    const advice = (key: string) =>
      validate({ ...CA, atmosphere_ingress_annotations: { [key]: 'X' } }).find((x) => x.rule === 'annotation-key')
        ?.advice;
    expect(advice('example.com/subject-countries')).toBe('Did you mean cert-manager.io/subject-countries?');
    expect(advice('cert-manager.io/subject-organisation')).toBe('Did you mean cert-manager.io/subject-organizations?');
    expect(advice('cert-manager.io/subjct-localities')).toBe('Did you mean cert-manager.io/subject-localities?');
    expect(advice('cert-manager.io/organizations')).toBe('Did you mean cert-manager.io/subject-organizations?');
    expect(advice('acme.example/whatever')).toMatch(/^Allowed keys: /);
  });

  it("suggests the platform's name for a misspelt name in the neutral words, and leaves the ingress role's own variables alone", () => {
    const [f] = validate({ ...ROUTE53, cluster_issuer_acme_clouddnsb_regoin: 'us-east-1' }).filter(
      (x) => x.rule === 'unknown-variable',
    );
    expect(f.advice).toBe('Did you mean cluster_issuer_acme_route53_region?');
    const [g] = validate({ openstack_helm_ingress_wildcard_domian: 'cloud.example.com' }).filter(
      (x) => x.rule === 'unknown-variable',
    );
    expect(g.advice).toBe('Did you mean openstack_helm_ingress_wildcard_domain?');
    expect(
      validate({ openstack_helm_ingress_class_name: 'nginx', openstack_helm_ingress_annotations: {} }).filter(
        (x) => x.rule === 'unknown-variable',
      ),
    ).toEqual([]);
  });

  it('accepts a name server without a port, as cert-manager does, and advises brackets for a bare IPv6 address', () => {
    expect(
      validate({ ...RFC, cluster_issuer_acme_rfc2136_nameserver: '[2001:db8::1]' }).filter(
        (x) => x.rule === 'rfc2136-nameserver',
      ),
    ).toEqual([]);
    expect(
      validate({ ...RFC, cluster_issuer_acme_rfc2136_nameserver: 'ns1.example.com' }).filter(
        (x) => x.rule === 'rfc2136-nameserver',
      ),
    ).toEqual([]);
    const f = validate({ ...RFC, cluster_issuer_acme_rfc2136_nameserver: '2001:db8::1' }).find(
      (x) => x.rule === 'rfc2136-nameserver',
    );
    expect(f?.advice).toContain('[2001:db8::1]:53');
  });

  it('warns about username/password and never quotes a secret value', () => {
    const secret = 'p4ssw0rd-very-secret';
    const findings = validate({
      ...COMMERCIAL,
      cluster_issuer_venafi_access_token: 'tok-zzz-secret',
      cluster_issuer_venafi_password: secret,
      cluster_issuer_venafi_username: 'u',
    });
    expect(findings.find((f) => f.rule === 'venafi-auth')?.severity).toBe('error');
    const text = JSON.stringify(validate({ ...RFC, cluster_issuer_acme_rfc2136_tsig_secret_key: { nested: secret } }));
    expect(text).not.toContain(secret);
  });

  it('ignores unrelated inventory keys', () => {
    expect(rules({ ...RFC, kube_vip_address: '10.0.0.1', openstack_helm_endpoints_x: 1 })).toEqual([]);
  });
});

describe('validate: types and values cloudgate cannot check', () => {
  const rules = (values: Record<string, unknown>) =>
    validate(values).map((f) => `${f.rule}:${f.variable ?? ''}:${f.severity}`);

  it('a set or a number where text is expected is invalid-type, not unset; a date is the text written, as Ansible reads it', () => {
    const date = loadYaml('cluster_issuer_type: 2024-01-01\n', { what: 'the inventory', path: 'inv.yml' })
      .value as Record<string, unknown>;
    expect(date.cluster_issuer_type).toBe('2024-01-01');
    expect(rules(date)).toContain('issuer-type:cluster_issuer_type:error');
    const set = loadYaml('cluster_issuer_type: acme\ncluster_issuer_acme_email: !!set {a, b}\n', {
      what: 'the inventory',
      path: 'inv.yml',
    }).value as Record<string, unknown>;
    expect(rules(set)).toContain('invalid-type:cluster_issuer_acme_email:error');
    expect(rules(set)).not.toContain('acme-email-required:cluster_issuer_acme_email:error');
    expect(rules({ cluster_issuer_type: 5 })).toContain('invalid-type:cluster_issuer_type:error');
    expect(rules({ atmosphere_ingress_annotations: 'text' })).toContain(
      'invalid-type:atmosphere_ingress_annotations:error',
    );
  });

  it('a choosing value defined but empty or null is no branch: the role stops on it, and nothing below it is required', () => {
    expect(rules({})).toContain('acme-email-required:cluster_issuer_acme_email:error');
    expect(rules({ cluster_issuer_type: '' })).not.toContain('acme-email-required:cluster_issuer_acme_email:error');
    expect(rules({ cluster_issuer_type: null })).not.toContain('acme-email-required:cluster_issuer_acme_email:error');
    expect(
      rules({ ...ACME, cluster_issuer_acme_solver: 'route53', cluster_issuer_acme_route53_auth: '' }).filter((r) =>
        r.includes('access_key'),
      ),
    ).toEqual([]);
    expect(rules({ ...ACME, cluster_issuer_acme_solver: 'route53' })).toContain(
      'required:cluster_issuer_acme_route53_secret_access_key:error',
    );
  });

  it('vaulted values and Jinja expressions are "not checked" (info), never malformed', () => {
    const found = validate({
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_email: '{{ vault_acme_email }}',
      cluster_issuer_acme_cloudflare_api_token: new AnsibleTagged('!vault', '$ANSIBLE_VAULT;1.1;AES256\n31\n'),
    });
    const notChecked = found.filter((f) => f.rule === 'not-checked');
    expect(notChecked.map((f) => [f.variable, f.severity])).toEqual([
      ['cluster_issuer_acme_email', 'info'],
      ['cluster_issuer_acme_cloudflare_api_token', 'info'],
    ]);
    expect(notChecked.find((f) => f.variable === 'cluster_issuer_acme_cloudflare_api_token')?.message).toContain(
      'not checked (vaulted)',
    );
    expect(found.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('an !unsafe value is checked as the literal text it is', () => {
    expect(
      rules({ cluster_issuer_type: 'acme', cluster_issuer_acme_email: new AnsibleTagged('!unsafe', 'not-an-email') }),
    ).toContain('invalid-email:cluster_issuer_acme_email:error');
  });
});

describe("the role's own settings", () => {
  const godaddy = {
    cluster_issuer_acme_email: 'ops@example.com',
    cluster_issuer_acme_solver: 'godaddy',
    cluster_issuer_acme_godaddy_api_key: 'k',
    cluster_issuer_acme_godaddy_secret_key: 's',
  };
  it.each([
    [{ cluster_issuer_acme_godaddy_ttl: '600' }, 'invalid-type'],
    [{ cluster_issuer_acme_godaddy_ttl: 1.5 }, 'invalid-type'],
    [{ cluster_issuer_acme_godaddy_is_production: 'false' }, 'bool-quoted'],
    [{ cluster_issuer_acme_godaddy_helm_values: 'replicaCount=2' }, 'invalid-type'],
  ])('%j: %s', (extra, rule) => {
    expect(validate({ ...godaddy, ...extra }).map((f) => f.rule)).toContain(rule);
  });

  it('accepts them well formed, and an Azure environment only from the list', () => {
    expect(
      validate({
        ...godaddy,
        cluster_issuer_acme_godaddy_ttl: 300,
        cluster_issuer_acme_godaddy_helm_values: { replicaCount: 2 },
      }).filter((f) => f.severity === 'error'),
    ).toEqual([]);
    const azure = {
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_solver: 'azuredns',
      cluster_issuer_acme_azuredns_environment: 'AzureMoonCloud',
    };
    expect(validate(azure).find((f) => f.variable === 'cluster_issuer_acme_azuredns_environment')).toMatchObject({
      severity: 'error',
    });
  });
});
