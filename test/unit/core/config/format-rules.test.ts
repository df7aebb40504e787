import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/config/validate.js';
import { formatRule } from '../../../../src/core/config/value-rules.js';
import { variable } from '../../../../src/core/config/variables.js';

const rulesOf = (name: string, value: string) =>
  formatRule(variable(name)!, value).map((f) => ({ rule: f.rule, severity: f.severity, variable: f.variable }));

const AZURE = {
  cluster_issuer_type: 'acme',
  cluster_issuer_acme_email: 'a@example.com',
  cluster_issuer_acme_solver: 'azuredns',
  cluster_issuer_acme_azuredns_client_id: '0b6a5e3c-7f4e-4d5b-9a0e-2f1c3d4e5f60',
  cluster_issuer_acme_azuredns_client_secret: 'secret',
  cluster_issuer_acme_azuredns_subscription_id: 'A1B2C3D4-E5F6-4a7b-8c9d-0e1f2a3b4c5d',
  cluster_issuer_acme_azuredns_tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  cluster_issuer_acme_azuredns_resourcegroup_name: 'dns',
  cluster_issuer_acme_azuredns_hostedzone_name: 'example.com',
};

describe('Azure ids', () => {
  it('GUIDs in either case pass, and so does a tenant given by its domain', () => {
    expect(validate(AZURE).filter((f) => f.rule === 'azure-id')).toEqual([]);
    expect(rulesOf('cluster_issuer_acme_azuredns_tenant_id', 'contoso.onmicrosoft.com')).toEqual([]);
  });

  it.each([
    ['cluster_issuer_acme_azuredns_client_id', 'my-app'],
    ['cluster_issuer_acme_azuredns_subscription_id', 'example.com'],
    ['cluster_issuer_acme_azuredns_subscription_id', '0b6a5e3c7f4e4d5b9a0e2f1c3d4e5f60'],
    ['cluster_issuer_acme_azuredns_tenant_id', '72f988bf-86f1-41af-91ab-2d7cd011db4'],
  ])('%s "%s" is refused', (name, value) => {
    expect(validate({ ...AZURE, [name]: value }).filter((f) => f.rule === 'azure-id')).toEqual([
      expect.objectContaining({ rule: 'azure-id', severity: 'error', variable: name }),
    ]);
  });

  it('a GUID in braces is refused with the same GUID without them as the fix', () => {
    const [found] = formatRule(
      variable('cluster_issuer_acme_azuredns_client_id')!,
      '{0b6a5e3c-7f4e-4d5b-9a0e-2f1c3d4e5f60}',
    );
    expect(found).toMatchObject({ rule: 'azure-id', severity: 'error' });
    expect(found!.advice).toContain('cluster_issuer_acme_azuredns_client_id: 0b6a5e3c-7f4e-4d5b-9a0e-2f1c3d4e5f60');
  });
});

describe('AWS region codes', () => {
  it.each([
    'us-east-1',
    'us-gov-west-1',
    'cn-north-1',
    'eu-central-2',
    'ap-southeast-5',
    'il-central-1',
    'mx-central-1',
    'us-isob-east-1',
    'eusc-de-east-1',
    'ap-southeast-12',
  ])('%s passes (no closed list: a region opened later passes too)', (region) => {
    expect(rulesOf('cluster_issuer_acme_route53_region', region)).toEqual([]);
  });

  it.each(['us east 1', 'useast1', 'us-east', 'Frankfurt', 'us-east-1.amazonaws.com'])('"%s" is refused', (region) => {
    expect(rulesOf('cluster_issuer_acme_route53_region', region)).toEqual([
      { rule: 'aws-region', severity: 'error', variable: 'cluster_issuer_acme_route53_region' },
    ]);
  });

  it('upper case and an availability zone are refused with the region to write', () => {
    expect(formatRule(variable('cluster_issuer_acme_route53_region')!, 'US-EAST-1')[0]!.advice).toContain(
      'cluster_issuer_acme_route53_region: us-east-1',
    );
    expect(formatRule(variable('cluster_issuer_acme_route53_region')!, 'eu-west-1b')[0]!.advice).toContain(
      'cluster_issuer_acme_route53_region: eu-west-1',
    );
  });
});

describe('the Route 53 hosted zone id', () => {
  it.each(['Z1D633PJN98FT9', 'Z0123456789ABCDEFGHIJ', '/hostedzone/Z1D633PJN98FT9'])('%s passes', (id) => {
    expect(rulesOf('cluster_issuer_acme_route53_hosted_zone_id', id)).toEqual([]);
  });

  it.each(['example.com', 'cloud.example.com.'])(
    'the domain %s is refused, naming the lookup and the empty value as fixes',
    (id) => {
      const [found] = formatRule(variable('cluster_issuer_acme_route53_hosted_zone_id')!, id);
      expect(found).toMatchObject({
        rule: 'route53-hosted-zone-id',
        severity: 'error',
        variable: 'cluster_issuer_acme_route53_hosted_zone_id',
      });
      expect(found!.advice).toContain(`--dns-name ${id.replace(/\.$/, '')}`);
    },
  );

  it('an empty one stays allowed (cert-manager looks the zone up)', () => {
    const values = {
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'a@example.com',
      cluster_issuer_acme_solver: 'route53',
      cluster_issuer_acme_route53_auth: 'ambient',
      cluster_issuer_acme_route53_region: 'us-east-1',
      cluster_issuer_acme_route53_hosted_zone_id: '',
    };
    expect(
      validate(values).filter(
        (f) => f.variable === 'cluster_issuer_acme_route53_hosted_zone_id' && f.severity === 'error',
      ),
    ).toEqual([]);
  });
});

describe('a wildcard domain with a final dot', () => {
  const name = 'openstack_helm_ingress_wildcard_domain';

  it.each(['example.com.', 'cloud.example.com.'])(
    '%s is refused with the domain without the dot as the fix',
    (domain) => {
      const [found, ...rest] = formatRule(variable(name)!, domain);
      expect(rest).toEqual([]);
      expect(found).toMatchObject({ rule: 'wildcard-domain', severity: 'error', variable: name });
      expect(found!.advice).toBe(`Write ${name}: ${domain.slice(0, -1)}`);
    },
  );

  it('*.example.com. gets the domain without "*." and without the dot', () => {
    expect(formatRule(variable(name)!, '*.example.com.')[0]!.advice).toContain(`${name}: example.com (`);
  });

  it('is an error of the inventory too', () => {
    expect(validate({ [name]: 'example.com.' })).toContainEqual(
      expect.objectContaining({ rule: 'wildcard-domain', severity: 'error', variable: name }),
    );
    expect(validate({ [name]: 'example.com' }).filter((f) => f.rule === 'wildcard-domain')).toEqual([]);
  });
});

describe('the certificate subject country', () => {
  const key = 'cert-manager.io/subject-countries';
  const countries = (value: string) =>
    validate({ atmosphere_ingress_annotations: { [key]: value } }).filter((f) => f.rule === 'subject-country');

  it.each(['DE', 'US,CA', 'GB, FR', 'de', 'XK', 'XX'])('"%s" passes', (value) => {
    expect(countries(value)).toEqual([]);
  });

  it.each([
    ['Germany', 'Write the code: DE'],
    ['UK', 'GB'],
    ['DEU', undefined],
    ['EU', undefined],
    ['QQ', undefined],
    ['ZZ', undefined],
    ['D', undefined],
  ])('"%s" is refused', (value, advice) => {
    const found = countries(value);
    expect(found).toEqual([
      expect.objectContaining({
        rule: 'subject-country',
        severity: 'error',
        variable: 'atmosphere_ingress_annotations',
      }),
    ]);
    expect(found[0]!.message).toContain(`"${value}"`);
    if (advice) expect(found[0]!.advice).toContain(advice);
  });

  it('each country of a list is checked, in the deprecated variable as well', () => {
    const found = validate({ ingress_global_annotations: { [key]: 'DE,XY,US,Z1' } }).filter(
      (f) => f.rule === 'subject-country',
    );
    expect(found.map((f) => f.variable)).toEqual(['ingress_global_annotations', 'ingress_global_annotations']);
    expect(found.map((f) => /"(..)"/.exec(f.message.split('country')[1]!)?.[1])).toEqual(['XY', 'Z1']);
  });
});
