import { readFile } from 'node:fs/promises';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parseInventory } from '../../../../src/core/inventory/inventory.js';
import { inventorySchema } from '../../../../src/core/config/schema.js';
import { VARIABLES } from '../../../../src/core/config/variables.js';

const FIXTURES = new URL('../../../fixtures/inventory/', import.meta.url).pathname;
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const check = ajv.compile(inventorySchema());
const errorsOf = (values: Record<string, unknown>) =>
  check(values) ? [] : check.errors!.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);

describe('inventorySchema', () => {
  it("gives each naming its own defaults, and the role's other settings their types", () => {
    type Props = Record<string, { default?: unknown; type?: unknown; enum?: string[]; description: string }>;
    const spec = (inventorySchema('spec') as { properties: Props }).properties;
    const platform = (inventorySchema() as { properties: Props }).properties;
    expect(spec.cluster_issuer_acme_dnsc_secret_name!.default).toBe('dnsc-api-token');
    expect(platform.cluster_issuer_acme_cloudflare_secret_name!.default).toBe('cloudflare-api-token');
    expect(platform.cluster_issuer_acme_godaddy_helm_release_name!.default).toBe('cert-manager-webhook-godaddy');
    expect(platform.cluster_issuer_acme_godaddy_ttl).toMatchObject({ type: 'integer', default: 600 });
    expect(platform.cluster_issuer_acme_azuredns_environment!.enum).toContain('AzureUSGovernmentCloud');
    expect(platform.cluster_issuer_name!.description).toContain('atmosphere_ingress_cluster_issuer');
    expect(platform.cluster_issuer_acme_godaddy_helm_values!.type).toBe('object');
    expect(errorsOf({ cluster_issuer_acme_godaddy_ttl: '600' })).not.toEqual([]);
    expect(
      errorsOf({
        cluster_issuer_acme_godaddy_helm_values: { replicaCount: 2 },
        cluster_issuer_acme_email: 'a@example.com',
      }),
    ).toEqual([]);
  });

  it('has a property for every row of the table, with its help', () => {
    const schema = inventorySchema() as { properties: Record<string, { description: string }> };
    expect(Object.keys(schema.properties)).toEqual(VARIABLES.map((v) => v.name));
    expect(schema.properties.ingress_global_annotations).toMatchObject({ deprecated: true });
    expect(schema.properties.cluster_issuer_acme_email.description).toContain('Contact email');
  });

  it("accepts the good inventories, with unrelated keys and the ingress role's own variables", async () => {
    for (const name of ['good.yml', 'realistic.yml']) {
      const values = parseInventory(await readFile(FIXTURES + name, 'utf8'), name);
      expect(errorsOf(values), name).toEqual([]);
    }
    const platform = Object.assign(
      {},
      ...(await Promise.all(
        ['cluster_issuer.yml', 'endpoints.yml', 'kubernetes.yml'].map(async (f) =>
          parseInventory(await readFile(`${FIXTURES}platform/group_vars/all/${f}`, 'utf8'), f),
        ),
      )),
    );
    expect(errorsOf(platform)).toEqual([]);
    expect(
      errorsOf({
        cluster_issuer_acme_email: 'a@example.com',
        openstack_helm_ingress_class_name: 'nginx',
        openstack_helm_ingress_annotations: {},
      }),
    ).toEqual([]);
    // A neutral alias is not what the platform reads: the editor flags it.
    expect(
      errorsOf({
        cluster_issuer_acme_email: 'a@example.com',
        cloud_helm_ingress_wildcard_domain: 'cloud.example.com',
      }).join('\n'),
    ).toMatch(/property name must be valid .*cloud_helm_ingress_wildcard_domain/);
  });

  it('rejects a typo, a wrong enum value and a missing branch requirement', async () => {
    const bad = parseInventory(await readFile(FIXTURES + 'bad.yml', 'utf8'), 'bad.yml');
    expect(errorsOf(bad).join('\n')).toMatch(/openstack_helm_ingress_wildcard_domian/);
    expect(errorsOf({ cluster_issuer_type: 'letsencrypt' }).join('\n')).toMatch(
      /cluster_issuer_type must be equal to one of the allowed values/,
    );
    expect(errorsOf({ cluster_issuer_type: 'acme' }).join('\n')).toMatch(/cluster_issuer_acme_email/);
    expect(
      errorsOf({
        cluster_issuer_acme_email: 'a@example.com',
        cluster_issuer_acme_solver: 'route53',
        cluster_issuer_acme_route53_auth: 'kubernetes',
      }).join('\n'),
    ).toMatch(/cluster_issuer_acme_route53_role_arn/);
    expect(errorsOf({ cluster_issuer_type: 'ca' }).join('\n')).toMatch(/cluster_issuer_ca_private_key/);
    expect(errorsOf({ cluster_issuer_type: 'none' })).toEqual([]);
  });

  it("names each variable's neutral alias; --names spec gives the schema in the aliases, with the platform's name", () => {
    const platform = inventorySchema() as { properties: Record<string, Record<string, unknown>> };
    for (const row of VARIABLES) expect(platform.properties[row.name]['x-neutral-alias'], row.name).toBe(row.alias);
    expect(platform.properties.cluster_issuer_acme_route53_region['x-neutral-alias']).toBe(
      'cluster_issuer_acme_clouddnsb_region',
    );
    const spec = inventorySchema('spec') as { properties: Record<string, Record<string, unknown>> };
    expect(spec.properties.cluster_issuer_acme_clouddnsb_region['x-platform-name']).toBe(
      'cluster_issuer_acme_route53_region',
    );
    expect(spec.properties.cluster_issuer_acme_solver.enum).toEqual([
      'http01',
      'clouddnsa',
      'rfc2136',
      'clouddnsb',
      'dnsc',
      'dnsd',
      'dnse',
    ]);
    expect(spec.properties.cluster_issuer_acme_clouddnsb_secret_name.default).toBe(
      'certmgr-issuer-clouddnsb-credentials',
    );
    expect(spec.properties).not.toHaveProperty('cluster_issuer_acme_route53_region');
  });

  it('has no TSIG default, and requires what the platform needs (the route53 region and zone in every auth mode)', () => {
    const schema = inventorySchema() as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.cluster_issuer_acme_rfc2136_tsig_algorithm).not.toHaveProperty('default');
    expect(schema.properties.cluster_issuer_acme_rfc2136_tsig_algorithm.description).toMatch(
      /needed by the platform, no default.*Unset, the platform's deployment stops/,
    );
    const route53 = { cluster_issuer_acme_email: 'a@example.com', cluster_issuer_acme_solver: 'route53' };
    for (const auth of ['static', 'ambient', 'kubernetes']) {
      const errors = errorsOf({ ...route53, cluster_issuer_acme_route53_auth: auth }).join('\n');
      expect(errors, auth).toMatch(/required property 'cluster_issuer_acme_route53_region'/);
      expect(errors, auth).toMatch(/required property 'cluster_issuer_acme_route53_hosted_zone_id'/);
    }
    expect(
      errorsOf({ cluster_issuer_acme_email: 'a@example.com', cluster_issuer_acme_solver: 'rfc2136' }).join('\n'),
    ).toMatch(/required property 'cluster_issuer_acme_rfc2136_tsig_algorithm'/);
    expect(errorsOf({ cluster_issuer_type: 'venafi' }).join('\n')).toMatch(
      /required property 'cluster_issuer_venafi_tpp_ca_bundle'/,
    );
  });

  it('checks value shapes: host:port, https URL, bare domain, TSIG in any case, annotation keys', () => {
    const base = { cluster_issuer_acme_email: 'a@example.com' };
    expect(errorsOf({ ...base, cluster_issuer_acme_rfc2136_nameserver: 'ns1.example.com' })).not.toEqual([]);
    expect(errorsOf({ ...base, cluster_issuer_acme_server: 'http://acme/dir' })).not.toEqual([]);
    expect(errorsOf({ ...base, openstack_helm_ingress_wildcard_domain: '*.example.com' })).not.toEqual([]);
    expect(errorsOf({ ...base, cluster_issuer_acme_rfc2136_tsig_algorithm: 'hmacSHA256' })).toEqual([]);
    expect(errorsOf({ ...base, cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA384' })).not.toEqual([]);
    expect(
      errorsOf({ ...base, atmosphere_ingress_annotations: { 'cert-manager.io/subject-countries': 'DE' } }),
    ).toEqual([]);
    expect(errorsOf({ ...base, atmosphere_ingress_annotations: { 'cert-manager.io/common-name': 'x' } })).not.toEqual(
      [],
    );
  });
});
