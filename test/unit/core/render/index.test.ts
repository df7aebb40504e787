/** The YAML `cloudgate render` prints: one document per object, each under the comments that belong to it. */
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { crdValidators } from '../../../../src/core/render/crd-validators.js';
import { renderInventory, renderYaml } from '../../../../src/core/render/index.js';
import { BRANCHES, PEM } from '../../../helpers/render-branches.js';

const acme = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };
const GODADDY = {
  ...acme,
  cluster_issuer_acme_solver: 'godaddy',
  cluster_issuer_acme_godaddy_api_key: 'key-1',
  cluster_issuer_acme_godaddy_secret_key: 'skey-1',
};
const INFOBLOX = {
  ...acme,
  cluster_issuer_acme_solver: 'infoblox',
  cluster_issuer_acme_infoblox_view: 'default',
  cluster_issuer_acme_infoblox_host: 'grid.example.com',
  cluster_issuer_acme_infoblox_username: 'admin',
  cluster_issuer_acme_infoblox_password: 'pass-1234',
};

interface Doc {
  id: string;
  comments: string[];
  object: Record<string, unknown>;
}

/** Each document of the output: its object (parsed as YAML), and the comment lines above it. */
function documents(text: string): Doc[] {
  const parsed = parseAllDocuments(text);
  const chunks = text.split(/^---\n/m);
  expect(parsed.map((d) => d.errors)).toEqual(chunks.map(() => []));
  return parsed.map((doc, i) => {
    const object = doc.toJS() as { kind: string; metadata: { name: string; namespace?: string } };
    const comments = chunks[i].split('\n').filter((l) => l.startsWith('#'));
    // Every comment comes before the object's first line: none inside or after it.
    expect(
      chunks[i]
        .split('\n')
        .slice(comments.length)
        .some((l) => l.startsWith('#')),
    ).toBe(false);
    return {
      id: `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`,
      comments,
      object,
    };
  });
}

describe('render YAML', () => {
  for (const [solver, values, release, secret, role] of [
    ['godaddy', GODADDY, 'cert-manager-webhook-godaddy', 'godaddy-api-key', 'webhook-godaddy:secret-reader'],
    [
      'infoblox',
      INFOBLOX,
      'cert-manager-webhook-infoblox-wapi',
      'cert-manager-issuer-infoblox-credentials',
      'webhook-infoblox-wapi:secret-reader',
    ],
  ] as const) {
    it(`${solver}: the Helm release note opens the solver's first object, after ClusterIssuer self-signed; its RBAC is the solver's`, () => {
      const docs = documents(renderYaml(renderInventory(values)));
      expect(docs.map((d) => d.id)).toEqual([
        'ClusterIssuer self-signed',
        `Secret cert-manager/${secret}`,
        `Role cert-manager/${role}`,
        `RoleBinding cert-manager/${role}`,
        'ClusterIssuer atmosphere',
      ]);
      expect(docs[0].comments).toEqual(['# ClusterIssuer self-signed', '# always created by the platform']);
      expect(docs[1].comments[0]).toMatch(new RegExp(`^# Helm release cert-manager/${release} `));
      expect(docs[1].comments[1]).toBe(`#   groupName: ${solver}.cert-manager.atmosphere.dev`);
      expect(docs[1].comments[2]).toBe(`# ${docs[1].id}`);
      expect(docs[1].comments[3]).toMatch(/^# made from: cluster_issuer_acme_(godaddy|infoblox)_/);
      expect(docs[2].comments).toEqual([
        `# ${docs[2].id}`,
        `# made from: cluster_issuer_acme_solver, cluster_issuer_acme_${solver}_role_name`,
      ]);
      expect(docs[3].comments).toEqual([
        `# ${docs[3].id}`,
        `# made from: cluster_issuer_acme_solver, cluster_issuer_acme_${solver}_role_binding_name, cluster_issuer_acme_${solver}_service_account_name`,
      ]);
      expect(docs[4].comments[1]).toMatch(/^# made from: cluster_issuer_type, cluster_issuer_acme_email/);
      expect(docs.flatMap((d) => d.comments).filter((c) => /---/.test(c))).toEqual([]);
    });
  }

  it('wildcard auto: the wildcard Certificate is the last document, under the variables that made it', () => {
    const docs = documents(
      renderYaml(renderInventory({ ...GODADDY, openstack_helm_ingress_wildcard_domain: 'cloud.example.com' })),
    );
    expect(docs.at(-1)!.comments).toEqual([
      '# Certificate openstack/atmosphere-wildcard',
      '# made from: openstack_helm_ingress_wildcard_domain, cluster_issuer_type',
    ]);
    expect(docs.at(-1)!.object).toMatchObject({ spec: { dnsNames: ['*.cloud.example.com'] } });
  });

  it('issuer none: one document, the self-signed ClusterIssuer', () => {
    const docs = documents(renderYaml(renderInventory({ cluster_issuer_type: 'none' })));
    expect(docs).toEqual([
      {
        id: 'ClusterIssuer self-signed',
        comments: ['# ClusterIssuer self-signed', '# always created by the platform'],
        object: {
          apiVersion: 'cert-manager.io/v1',
          kind: 'ClusterIssuer',
          metadata: { name: 'self-signed' },
          spec: { selfSigned: {} },
        },
      },
    ]);
  });
});

const kinds = (values: Record<string, unknown>) =>
  renderInventory(values).objects.map(({ object }) => `${object.kind}/${object.metadata.name}`);

describe('render: what the platform would fail on', () => {
  const errorsOf = (values: Record<string, unknown>) =>
    renderInventory(values)
      .findings.filter((f) => f.severity === 'error')
      .map((f) => f.variable);

  it('route53 without region or hosted zone id stops the deployment', () => {
    const values = { ...BRANCHES['acme route53 ambient'] };
    delete values.cluster_issuer_acme_route53_region;
    delete values.cluster_issuer_acme_route53_hosted_zone_id;
    expect(errorsOf(values)).toEqual([
      'cluster_issuer_acme_route53_region',
      'cluster_issuer_acme_route53_hosted_zone_id',
    ]);
  });

  it('rfc2136 without a TSIG algorithm stops the deployment (the platform has no default)', () => {
    const values = { ...BRANCHES['acme rfc2136'] };
    delete values.cluster_issuer_acme_rfc2136_tsig_algorithm;
    expect(errorsOf(values)).toEqual(['cluster_issuer_acme_rfc2136_tsig_algorithm']);
  });

  it('venafi without its CA or TPP bundle stops the deployment', () => {
    const values = { ...BRANCHES['venafi token'] };
    delete values.cluster_issuer_venafi_ca;
    delete values.cluster_issuer_venafi_tpp_ca_bundle;
    expect(errorsOf(values)).toEqual(
      expect.arrayContaining(['cluster_issuer_venafi_ca', 'cluster_issuer_venafi_tpp_ca_bundle']),
    );
  });

  it('a PEM TPP bundle is refused by the schema (the field is base64)', () => {
    const findings = renderInventory({
      ...BRANCHES['venafi token'],
      cluster_issuer_venafi_tpp_ca_bundle: PEM,
    }).findings;
    expect(findings).toEqual([
      expect.objectContaining({ variable: 'cluster_issuer_venafi_tpp_ca_bundle', severity: 'error' }),
    ]);
    // Checked against the release the platform pins and the newest bundled one; both refuse it.
    expect(findings[0].message).toContain('cert-manager v1.15.5 and v1.21.1 schemas');
  });

  it('every cert-manager kind it renders has the pinned and the newest schema', () => {
    for (const kind of ['ClusterIssuer', 'Certificate'])
      expect(crdValidators(kind).map((c) => c.version)).toEqual(['v1.15.5', 'v1.21.1']);
    expect(crdValidators('Secret')).toEqual([]);
  });

  it('venafi with both a token and a user name/password gets no credentials secret', () => {
    const values = {
      ...BRANCHES['venafi token'],
      cluster_issuer_venafi_username: 'svc',
      cluster_issuer_venafi_password: 'pw-1234',
    };
    expect(kinds(values)).not.toContain('Secret/cert-manager-venafi-credentials');
    expect(errorsOf(values)).toEqual(['cluster_issuer_venafi_access_token']);
  });

  it('kubernetes without a role ARN', () => {
    const values = { ...BRANCHES['acme route53 kubernetes'] };
    delete values.cluster_issuer_acme_route53_role_arn;
    expect(errorsOf(values)).toEqual(['cluster_issuer_acme_route53_role_arn']);
  });

  it('an invalid object name is an error naming the variable that made it', () => {
    const findings = renderInventory({
      ...BRANCHES['acme route53 static'],
      cluster_issuer_acme_route53_secret_name: 'My_Secret',
    }).findings;
    expect(findings).toEqual([
      expect.objectContaining({ variable: 'cluster_issuer_acme_route53_secret_name', severity: 'error' }),
    ]);
  });

  it('an email the schema refuses is caught before the API server', () => {
    const findings = renderInventory({ ...acme, cluster_issuer_acme_email: ['not', 'a', 'string'] }).findings;
    expect(findings.map((f) => f.variable)).toContain('cluster_issuer_acme_email');
  });
});

describe('render: secrets', () => {
  it('no Secret value survives in the result', () => {
    for (const values of Object.values(BRANCHES)) {
      const result = JSON.stringify(renderInventory(values));
      for (const [name, value] of Object.entries(values)) {
        if (
          /secret|token|password|key$|private_key/.test(name) &&
          typeof value === 'string' &&
          !/_name$|key_name/.test(name)
        ) {
          expect(result, name).not.toContain(value);
        }
      }
    }
  });
});
