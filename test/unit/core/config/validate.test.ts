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
  cluster_issuer_acme_rfc2136_tsig_key_name: 'certmgr',
  cluster_issuer_acme_rfc2136_tsig_secret_key: 'c2VjcmV0LXRzaWcta2V5',
};
const CLOUDDNSB = {
  ...ACME,
  cluster_issuer_acme_solver: 'clouddnsb',
  cluster_issuer_acme_clouddnsb_auth: 'static',
  cluster_issuer_acme_clouddnsb_access_key_id: 'AKIAEXAMPLE',
  cluster_issuer_acme_clouddnsb_secret_access_key: 'very-secret-access-key',
};
const OIDC = {
  ...ACME,
  cluster_issuer_acme_solver: 'clouddnsb',
  cluster_issuer_acme_clouddnsb_auth: 'clusteroidc',
  cluster_issuer_acme_clouddnsb_role_arn: 'arn:aws:iam::123456789012:role/certmgr/dns01',
};
const PEM_CERT = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const PEM_KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n';
const COMMERCIAL = {
  cluster_issuer_type: 'commercialca',
  cluster_issuer_commercialca_ca: PEM_CERT,
  cluster_issuer_commercialca_zone: 'Certificates\\Cloud',
  cluster_issuer_commercialca_tpp_url: 'https://tpp.example.com/vedsdk',
  cluster_issuer_commercialca_access_token: 'token-value-123',
};
const CA = { cluster_issuer_type: 'ca', cluster_issuer_ca_certificate: PEM_CERT, cluster_issuer_ca_private_key: PEM_KEY };
const SUPPLIED = { cluster_issuer_type: 'none', cloud_helm_ingress_secret_name: 'wildcard-certs' };

const rules = (values: Record<string, unknown>) => validate(values).map((f) => f.rule);

/** [rule, values that break it, values that satisfy it] */
const CASES: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['wildcard-domain', { ...RFC, cloud_helm_ingress_wildcard_domain: '*.cloud.example.com' }, { ...RFC, cloud_helm_ingress_wildcard_domain: 'cloud.example.com' }],
  ['wildcard-domain', { ...RFC, cloud_helm_ingress_wildcard_domain: 'https://cloud.example.com' }, { ...RFC, cloud_helm_ingress_wildcard_domain: 'example.com' }],
  ['wildcard-domain', { ...RFC, cloud_helm_ingress_wildcard_domain: 'not a domain' }, { ...RFC, cloud_helm_ingress_wildcard_domain: 'a-b.example.org' }],
  ['secret-name-requires-none', { ...ACME, cloud_helm_ingress_secret_name: 'wildcard-certs' }, SUPPLIED],
  ['none-without-certificate', { cluster_issuer_type: 'none' }, SUPPLIED],
  ['secret-name', { ...SUPPLIED, cloud_helm_ingress_secret_name: 'Wildcard_Certs' }, SUPPLIED],
  ['issuer-type', { cluster_issuer_type: 'letsencrypt' }, CA],
  ['issuer-type', { ...ACME, cluster_issuer_type: 'ACME' }, ACME],
  ['acme-solver', { ...ACME, cluster_issuer_acme_solver: 'route53' }, { ...ACME, cluster_issuer_acme_solver: 'http01' }],
  ['acme-email-required', { cluster_issuer_type: 'acme' }, ACME],
  ['acme-email-required', { ...RFC, cluster_issuer_acme_email: '' }, RFC],
  ['invalid-email', { ...ACME, cluster_issuer_acme_email: 'ops.example.com' }, ACME],
  ['acme-server-https', { ...ACME, cluster_issuer_acme_server: 'http://acme.internal/directory' }, { ...ACME, cluster_issuer_acme_server: 'https://acme.internal/directory' }],
  ['invalid-url', { ...ACME, cluster_issuer_acme_server: 'acme.internal' }, { ...ACME, cluster_issuer_acme_server: 'https://acme.internal/directory' }],
  ['acme-private-ca-without-server', { ...ACME, cluster_issuer_acme_private_ca: true }, { ...ACME, cluster_issuer_acme_private_ca: true, cluster_issuer_acme_server: 'https://acme.internal/dir' }],
  ['bool-quoted', { ...ACME, cluster_issuer_acme_private_ca: 'true', cluster_issuer_acme_server: 'https://a.example/d' }, { ...ACME, cluster_issuer_acme_private_ca: false }],
  ['invalid-type', { ...ACME, cluster_issuer_acme_private_ca: 'maybe' }, { ...ACME, cluster_issuer_acme_private_ca: false }],
  ['wildcard-needs-dns01', { ...ACME, cloud_helm_ingress_wildcard_domain: 'cloud.example.com' }, { ...RFC, cloud_helm_ingress_wildcard_domain: 'cloud.example.com' }],
  ['required', { ...RFC, cluster_issuer_acme_rfc2136_tsig_key_name: undefined }, RFC],
  ['required', { ...ACME, cluster_issuer_acme_solver: 'clouddnsa' }, {
    ...ACME, cluster_issuer_acme_solver: 'clouddnsa', cluster_issuer_acme_clouddnsa_client_id: 'id', cluster_issuer_acme_clouddnsa_client_secret: 'secret-1',
    cluster_issuer_acme_clouddnsa_subscription_id: 'sub', cluster_issuer_acme_clouddnsa_tenant_id: 'tenant',
    cluster_issuer_acme_clouddnsa_resourcegroup_name: 'rg', cluster_issuer_acme_clouddnsa_hostedzone_name: 'example.com' }],
  ['required', { ...CLOUDDNSB, cluster_issuer_acme_clouddnsb_secret_access_key: null }, CLOUDDNSB],
  ['required', { ...ACME, cluster_issuer_acme_solver: 'dnse', cluster_issuer_acme_dnse_view: 'default' }, {
    ...ACME, cluster_issuer_acme_solver: 'dnse', cluster_issuer_acme_dnse_view: 'default', cluster_issuer_acme_dnse_host: 'dns.example.com',
    cluster_issuer_acme_dnse_username: 'u', cluster_issuer_acme_dnse_password: 'pass-word' }],
  ['rfc2136-nameserver', { ...RFC, cluster_issuer_acme_rfc2136_nameserver: 'ns1.example.com' }, RFC],
  ['rfc2136-nameserver', { ...RFC, cluster_issuer_acme_rfc2136_nameserver: '2001:db8::1:53' }, { ...RFC, cluster_issuer_acme_rfc2136_nameserver: '[2001:db8::1]:53' }],
  ['rfc2136-nameserver', { ...RFC, cluster_issuer_acme_rfc2136_nameserver: '10.0.0.1:99999' }, { ...RFC, cluster_issuer_acme_rfc2136_nameserver: '10.0.0.1:5353' }],
  ['rfc2136-tsig-algorithm', { ...RFC, cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA384' }, { ...RFC, cluster_issuer_acme_rfc2136_tsig_algorithm: 'hmacsha256' }],
  ['clouddnsb-auth', { ...CLOUDDNSB, cluster_issuer_acme_clouddnsb_auth: 'kubernetes' }, CLOUDDNSB],
  ['clouddnsb-role-arn-required', { ...OIDC, cluster_issuer_acme_clouddnsb_role_arn: undefined }, OIDC],
  ['clouddnsb-role-arn', { ...OIDC, cluster_issuer_acme_clouddnsb_role_arn: 'arn:aws:iam::1234:role/x' }, OIDC],
  ['clouddnsb-role-arn', { ...OIDC, cluster_issuer_acme_clouddnsb_auth: 'ambient', cluster_issuer_acme_clouddnsb_role_arn: 'certmgr-dns01' },
    { ...OIDC, cluster_issuer_acme_clouddnsb_auth: 'ambient', cluster_issuer_acme_clouddnsb_role_arn: undefined }],
  ['dnsc-email-redundant', { ...ACME, cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 'tok-123', cluster_issuer_acme_dnsc_email: 'OPS@example.com' },
    { ...ACME, cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 'tok-123', cluster_issuer_acme_dnsc_email: 'dns@example.com' }],
  ['clouddnsb-clusteroidc-prerequisites', OIDC, CLOUDDNSB],
  ['dnse-webhook', { ...ACME, cluster_issuer_acme_solver: 'dnse' }, RFC],
  ['dnsd-limits', { ...ACME, cluster_issuer_acme_solver: 'dnsd', cluster_issuer_acme_dnsd_api_key: 'key-1', cluster_issuer_acme_dnsd_secret_key: 'sec-1' }, RFC],
  ['commercialca-auth', { ...COMMERCIAL, cluster_issuer_commercialca_username: 'u', cluster_issuer_commercialca_password: 'p-1234' }, COMMERCIAL],
  ['commercialca-auth', { ...COMMERCIAL, cluster_issuer_commercialca_access_token: undefined }, COMMERCIAL],
  ['commercialca-auth', { ...COMMERCIAL, cluster_issuer_commercialca_access_token: undefined, cluster_issuer_commercialca_username: 'u' }, COMMERCIAL],
  ['commercialca-legacy-auth', { ...COMMERCIAL, cluster_issuer_commercialca_access_token: '', cluster_issuer_commercialca_username: 'u', cluster_issuer_commercialca_password: 'p-1234' }, COMMERCIAL],
  ['required', { ...COMMERCIAL, cluster_issuer_commercialca_zone: undefined }, COMMERCIAL],
  ['url-https', { ...COMMERCIAL, cluster_issuer_commercialca_tpp_url: 'http://tpp.example.com/vedsdk' }, COMMERCIAL],
  ['required', { cluster_issuer_type: 'ca', cluster_issuer_ca_certificate: PEM_CERT }, CA],
  ['pem-format', { ...CA, cluster_issuer_ca_private_key: 'not a key' }, CA],
  ['pem-format', { ...CA, cluster_issuer_ca_certificate: 'MIIB...' }, CA],
  ['self-signed', { cluster_issuer_type: 'self-signed' }, CA],
  ['annotation-key', { ...CA, platform_ingress_annotations: { 'cert-manager.io/subject-organisation': 'X' } },
    { ...CA, platform_ingress_annotations: { 'cert-manager.io/subject-organizations': 'X', 'cert-manager.io/subject-countries': 'DE' } }],
  ['annotation-key', { ...CA, platform_ingress_annotations: { 'example.com/subject-countries': 'DE' } }, CA],
  ['annotation-value', { ...CA, platform_ingress_annotations: { 'cert-manager.io/subject-countries': ['DE'] } },
    { ...CA, platform_ingress_annotations: { 'cert-manager.io/subject-countries': 'DE' } }],
  ['invalid-type', { ...CA, platform_ingress_annotations: 'cert-manager.io/subject-countries=DE' }, CA],
  ['deprecated-variable', { ...CA, ingress_global_annotations: { 'cert-manager.io/subject-countries': 'DE' } },
    { ...CA, platform_ingress_annotations: { 'cert-manager.io/subject-countries': 'DE' } }],
  ['annotations-conflict', { ...CA, ingress_global_annotations: { 'cert-manager.io/subject-countries': 'DE' }, platform_ingress_annotations: { 'cert-manager.io/subject-countries': 'FR' } },
    { ...CA, platform_ingress_annotations: { 'cert-manager.io/subject-countries': 'FR' } }],
  ['unused-variable', { ...RFC, cluster_issuer_acme_dnsc_api_token: 'tok-123' }, RFC],
  ['unused-variable', { ...CA, cluster_issuer_acme_email: 'ops@example.com' }, CA],
  ['unused-variable', { ...CLOUDDNSB, cluster_issuer_acme_clouddnsb_role_arn: 'arn:aws:iam::123456789012:role/x' }, CLOUDDNSB],
  ['unknown-variable', { ...RFC, cluster_issuer_acme_rfc2136_tsig_keyname: 'x' }, RFC],
];

describe('validate', () => {
  it.each(CASES.map(([rule, bad, good], i) => [`${rule} #${i}`, rule, bad, good] as const))('%s: bad case reports, good case does not', (_label, rule, bad, good) => {
    expect(rules(bad)).toContain(rule);
    expect(rules(good)).not.toContain(rule);
  });

  it('finds nothing wrong in a clean configuration of each issuer', () => {
    const ca = createTestCA('validate test CA');
    const real = { cluster_issuer_commercialca_ca: ca.cert, cluster_issuer_ca_certificate: ca.cert, cluster_issuer_ca_private_key: ca.key };
    const withReal = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k in real ? real[k as keyof typeof real] : x]));
    for (const values of [ACME, RFC, CLOUDDNSB, OIDC, COMMERCIAL, CA, SUPPLIED].map(withReal)) {
      const errors = validate(values).filter((f) => f.severity !== 'info');
      expect(errors, JSON.stringify(values)).toEqual([]);
    }
  });

  it('suggests the variable meant by a typo', () => {
    const [f] = validate({ ...RFC, cluster_issuer_acme_rfc2136_tsig_keyname: 'x' }).filter((x) => x.rule === 'unknown-variable');
    expect(f.advice).toContain('cluster_issuer_acme_rfc2136_tsig_key_name');
    expect(f.severity).toBe('warning');
  });

  it('suggests by the one rule of closest.ts: a third of the name may differ', () => {
    const [f] = validate({ ...ACME, cluster_issuer_acme_email_adress: 'ops@example.com' }).filter((x) => x.rule === 'unknown-variable');
    expect(f.advice).toBe('Did you mean cluster_issuer_acme_email?');
  });

  it('suggests an annotation key by its last part, else by the same rule', () => {
    const advice = (key: string) => validate({ ...CA, platform_ingress_annotations: { [key]: 'X' } }).find((x) => x.rule === 'annotation-key')?.advice;
    expect(advice('example.com/subject-countries')).toBe('Did you mean cert-manager.io/subject-countries?');
    expect(advice('cert-manager.io/subject-organisation')).toBe('Did you mean cert-manager.io/subject-organizations?');
    expect(advice('cert-manager.io/subjct-localities')).toBe('Did you mean cert-manager.io/subject-localities?');
    expect(advice('cert-manager.io/organizations')).toBe('Did you mean cert-manager.io/subject-organizations?');
    expect(advice('acme.example/whatever')).toMatch(/^Allowed keys: /);
  });

  it('translates the real platform\'s provider names into the neutral ones', () => {
    const [f] = validate({ ...CLOUDDNSB, cluster_issuer_acme_route53_region: 'us-east-1' }).filter((x) => x.rule === 'unknown-variable');
    expect(f.advice).toBe('Did you mean cluster_issuer_acme_clouddnsb_region?');
  });

  it('advises adding :53 to a name server without a port', () => {
    const f = validate({ ...RFC, cluster_issuer_acme_rfc2136_nameserver: '[2001:db8::1]' }).find((x) => x.rule === 'rfc2136-nameserver');
    expect(f?.advice).toContain('[2001:db8::1]:53');
  });

  it('warns about username/password and never quotes a secret value', () => {
    const secret = 'p4ssw0rd-very-secret';
    const findings = validate({ ...COMMERCIAL, cluster_issuer_commercialca_access_token: 'tok-zzz-secret', cluster_issuer_commercialca_password: secret, cluster_issuer_commercialca_username: 'u' });
    expect(findings.find((f) => f.rule === 'commercialca-auth')?.severity).toBe('error');
    const text = JSON.stringify(validate({ ...RFC, cluster_issuer_acme_rfc2136_tsig_secret_key: { nested: secret } }));
    expect(text).not.toContain(secret);
  });

  it('ignores unrelated inventory keys', () => {
    expect(rules({ ...RFC, kube_vip_address: '10.0.0.1', openstack_helm_endpoints_x: 1 })).toEqual([]);
  });
});

describe('validate: types and values cloudgate cannot check', () => {
  const rules = (values: Record<string, unknown>) => validate(values).map((f) => `${f.rule}:${f.variable ?? ''}:${f.severity}`);

  it('a date, a set or a number where text is expected is invalid-type, not unset', () => {
    const date = loadYaml('cluster_issuer_type: 2024-01-01\n', { what: 'the inventory', path: 'inv.yml' }).value as Record<string, unknown>;
    expect(rules(date)).toContain('invalid-type:cluster_issuer_type:error');
    const set = loadYaml('cluster_issuer_type: acme\ncluster_issuer_acme_email: !!set {a, b}\n', { what: 'the inventory', path: 'inv.yml' }).value as Record<string, unknown>;
    expect(rules(set)).toContain('invalid-type:cluster_issuer_acme_email:error');
    expect(rules(set)).not.toContain('acme-email-required:cluster_issuer_acme_email:error');
    expect(rules({ cluster_issuer_type: 5 })).toContain('invalid-type:cluster_issuer_type:error');
    expect(rules({ platform_ingress_annotations: 'text' })).toContain('invalid-type:platform_ingress_annotations:error');
  });

  it('vaulted values and Jinja expressions are "not checked" (info), never malformed', () => {
    const found = validate({
      cluster_issuer_type: 'acme', cluster_issuer_acme_solver: 'dnsc',
      cluster_issuer_acme_email: '{{ vault_acme_email }}',
      cluster_issuer_acme_dnsc_api_token: new AnsibleTagged('!vault', '$ANSIBLE_VAULT;1.1;AES256\n31\n'),
    });
    const notChecked = found.filter((f) => f.rule === 'not-checked');
    expect(notChecked.map((f) => [f.variable, f.severity])).toEqual([
      ['cluster_issuer_acme_email', 'info'], ['cluster_issuer_acme_dnsc_api_token', 'info'],
    ]);
    expect(notChecked.find((f) => f.variable === 'cluster_issuer_acme_dnsc_api_token')?.message).toContain('not checked (vaulted)');
    expect(found.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('an !unsafe value is checked as the literal text it is', () => {
    expect(rules({ cluster_issuer_type: 'acme', cluster_issuer_acme_email: new AnsibleTagged('!unsafe', 'not-an-email') }))
      .toContain('invalid-email:cluster_issuer_acme_email:error');
  });
});

describe('the role\'s own settings', () => {
  const dnsd = { cluster_issuer_acme_email: 'ops@example.com', cluster_issuer_acme_solver: 'dnsd', cluster_issuer_acme_dnsd_api_key: 'k', cluster_issuer_acme_dnsd_secret_key: 's' };
  it.each([
    [{ cluster_issuer_acme_dnsd_ttl: '600' }, 'invalid-type'],
    [{ cluster_issuer_acme_dnsd_ttl: 1.5 }, 'invalid-type'],
    [{ cluster_issuer_acme_dnsd_is_production: 'false' }, 'bool-quoted'],
    [{ cluster_issuer_acme_dnsd_helm_values: 'replicaCount=2' }, 'invalid-type'],
  ])('%j: %s', (extra, rule) => {
    expect(validate({ ...dnsd, ...extra }).map((f) => f.rule)).toContain(rule);
  });

  it('accepts them well formed, and an Azure environment only from the list', () => {
    expect(validate({ ...dnsd, cluster_issuer_acme_dnsd_ttl: 300, cluster_issuer_acme_dnsd_helm_values: { replicaCount: 2 } }).filter((f) => f.severity === 'error')).toEqual([]);
    const azure = { cluster_issuer_acme_email: 'ops@example.com', cluster_issuer_acme_solver: 'clouddnsa', cluster_issuer_acme_clouddnsa_environment: 'AzureMoonCloud' };
    expect(validate(azure).find((f) => f.variable === 'cluster_issuer_acme_clouddnsa_environment')).toMatchObject({ severity: 'error' });
  });
});
