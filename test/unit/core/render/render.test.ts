import { crdValidators } from '../../../../src/core/render/crd-validators.js';
import { describe, expect, it } from 'vitest';
import { checkObjects } from '../../../../src/core/render/check.js';
import { renderInventory } from '../../../../src/core/render/index.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const acme = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };

/** One complete inventory per branch of the platform's rendering. */
const BRANCHES: Record<string, Record<string, unknown>> = {
  'acme http01': { ...acme },
  'acme http01 internal server': { ...acme, cluster_issuer_acme_server: 'https://acme.internal.example.com/directory' },
  'acme clouddnsa': {
    ...acme, cluster_issuer_acme_solver: 'clouddnsa', cluster_issuer_acme_clouddnsa_client_id: 'cid',
    cluster_issuer_acme_clouddnsa_client_secret: 'csecret-1234', cluster_issuer_acme_clouddnsa_subscription_id: 'sub',
    cluster_issuer_acme_clouddnsa_tenant_id: 'tenant', cluster_issuer_acme_clouddnsa_resourcegroup_name: 'rg',
    cluster_issuer_acme_clouddnsa_hostedzone_name: 'cloud.example.com',
  },
  'acme rfc2136': {
    ...acme, cluster_issuer_acme_solver: 'rfc2136', cluster_issuer_acme_rfc2136_nameserver: '10.0.0.53:53',
    cluster_issuer_acme_rfc2136_tsig_algorithm: 'HMACSHA256', cluster_issuer_acme_rfc2136_tsig_key_name: 'acme',
    cluster_issuer_acme_rfc2136_tsig_secret_key: 'c2VjcmV0LXRzaWcta2V5',
  },
  'acme clouddnsb static': {
    ...acme, cluster_issuer_acme_solver: 'clouddnsb', cluster_issuer_acme_clouddnsb_region: 'eu-west-1',
    cluster_issuer_acme_clouddnsb_hosted_zone_id: 'Z123', cluster_issuer_acme_clouddnsb_access_key_id: 'AKIAEXAMPLE',
    cluster_issuer_acme_clouddnsb_secret_access_key: 'secret-access-key-1',
  },
  'acme clouddnsb ambient': {
    ...acme, cluster_issuer_acme_solver: 'clouddnsb', cluster_issuer_acme_clouddnsb_auth: 'ambient',
    cluster_issuer_acme_clouddnsb_region: 'eu-west-1', cluster_issuer_acme_clouddnsb_hosted_zone_id: 'Z123',
  },
  'acme clouddnsb clusteroidc': {
    ...acme, cluster_issuer_acme_solver: 'clouddnsb', cluster_issuer_acme_clouddnsb_auth: 'clusteroidc',
    cluster_issuer_acme_clouddnsb_region: 'eu-west-1', cluster_issuer_acme_clouddnsb_hosted_zone_id: 'Z123',
    cluster_issuer_acme_clouddnsb_role_arn: 'arn:aws:iam::123456789012:role/dns',
  },
  'acme dnsc': { ...acme, cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 'token-1234' },
  'acme dnsd': { ...acme, cluster_issuer_acme_solver: 'dnsd', cluster_issuer_acme_dnsd_api_key: 'key-1', cluster_issuer_acme_dnsd_secret_key: 'skey-1' },
  'acme dnse': {
    ...acme, cluster_issuer_acme_solver: 'dnse', cluster_issuer_acme_dnse_view: 'default', cluster_issuer_acme_dnse_host: 'grid.example.com',
    cluster_issuer_acme_dnse_username: 'admin', cluster_issuer_acme_dnse_password: 'pass-1234',
  },
  'commercialca token': {
    cluster_issuer_type: 'commercialca', cluster_issuer_commercialca_ca: PEM, cluster_issuer_commercialca_zone: 'Certs\\Cloud',
    cluster_issuer_commercialca_tpp_url: 'https://tpp.example.com/vedsdk', cluster_issuer_commercialca_tpp_ca_bundle: Buffer.from(PEM).toString('base64'),
    cluster_issuer_commercialca_access_token: 'tpp-token-1',
  },
  'commercialca username and password': {
    cluster_issuer_type: 'commercialca', cluster_issuer_commercialca_ca: PEM, cluster_issuer_commercialca_zone: 'Certs\\Cloud',
    cluster_issuer_commercialca_tpp_url: 'https://tpp.example.com/vedsdk', cluster_issuer_commercialca_tpp_ca_bundle: Buffer.from(PEM).toString('base64'),
    cluster_issuer_commercialca_username: 'svc', cluster_issuer_commercialca_password: 'pw-1234',
  },
  ca: { cluster_issuer_type: 'ca', cluster_issuer_ca_certificate: PEM, cluster_issuer_ca_private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' },
  'self-signed': { cluster_issuer_type: 'self-signed' },
  'wildcard auto with acme': { ...acme, cloud_helm_ingress_wildcard_domain: 'cloud.example.com' },
  none: { cluster_issuer_type: 'none', cloud_helm_ingress_secret_name: 'wildcard-certs' },
};

const kinds = (values: Record<string, unknown>) => renderPlatform(values).objects.map(({ object }) => `${object.kind}/${object.metadata.name}`);

describe('render: every branch gives objects cert-manager and the API server accept', () => {
  for (const [branch, values] of Object.entries(BRANCHES)) {
    it(branch, () => {
      const rendered = renderPlatform(values);
      expect(rendered.findings).toEqual([]);
      expect(checkObjects(rendered.objects)).toEqual([]);
      expect(rendered.objects[0].object).toMatchObject({ kind: 'ClusterIssuer', metadata: { name: 'self-signed' } });
      // The issuer comes after its credentials; only the wildcard Certificate (made by the ingress role) follows it.
      const ids = rendered.objects.map(({ object }) => `${object.kind}/${object.metadata.name}`);
      const wildcard = values.cloud_helm_ingress_wildcard_domain ? ['Certificate/atmosphere-wildcard'] : [];
      if (values.cluster_issuer_type !== 'none') expect(ids.slice(ids.indexOf('ClusterIssuer/atmosphere'))).toEqual(['ClusterIssuer/atmosphere', ...wildcard]);
    });
  }
});

describe('render: objects per branch', () => {
  it('issuer none creates only the self-signed ClusterIssuer', () => {
    expect(kinds(BRANCHES.none)).toEqual(['ClusterIssuer/self-signed']);
  });

  it('http01 uses the platform ingress class and the public ACME server by default', () => {
    const issuer = renderPlatform(BRANCHES['acme http01']).objects.at(-1)!.object as unknown as { spec: { acme: Record<string, unknown> } };
    expect(issuer.spec.acme).toMatchObject({
      server: 'https://acme-v02.api.letsencrypt.org/directory',
      privateKeySecretRef: { name: 'certmgr-issuer-account-key' },
      solvers: [{ http01: { ingress: { class: 'atmosphere' } } }],
    });
  });

  it('clusteroidc adds the service account, its token-request Role and the binding to the controller', () => {
    expect(kinds(BRANCHES['acme clouddnsb clusteroidc'])).toEqual([
      'ClusterIssuer/self-signed', 'ServiceAccount/certmgr-clouddnsb', 'Role/certmgr-clouddnsb-tokenrequest',
      'RoleBinding/certmgr-clouddnsb-tokenrequest', 'ClusterIssuer/atmosphere',
    ]);
    const issuer = renderPlatform(BRANCHES['acme clouddnsb clusteroidc']).objects.at(-1)!.object as unknown as { spec: { acme: { solvers: unknown[] } } };
    expect(issuer.spec.acme.solvers[0]).toEqual({ dns01: { route53: {
      region: 'eu-west-1', hostedZoneID: 'Z123', role: 'arn:aws:iam::123456789012:role/dns',
      auth: { kubernetes: { serviceAccountRef: { name: 'certmgr-clouddnsb' } } },
    } } });
  });

  it('the platform profile uses the platform\'s own object names', () => {
    const names = renderPlatform(BRANCHES['acme clouddnsb static'], 'platform').objects.map(({ object }) => object.metadata.name);
    expect(names).toContain('cert-manager-issuer-route53-credentials');
    const dnsd = renderPlatform(BRANCHES['acme dnsd'], 'platform');
    expect(dnsd.helm).toEqual([{ name: 'cert-manager-webhook-godaddy', namespace: 'cert-manager', values: { groupName: 'godaddy.cert-manager.atmosphere.dev' } }]);
  });

  it('wildcard auto: Certificate openstack/atmosphere-wildcard for *.<domain>, issued by ClusterIssuer atmosphere, after it', () => {
    const rendered = renderPlatform(BRANCHES['wildcard auto with acme']);
    expect(rendered.objects.at(-1)).toEqual({
      object: {
        apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { name: 'atmosphere-wildcard', namespace: 'openstack' },
        spec: { dnsNames: ['*.cloud.example.com'], issuerRef: { kind: 'ClusterIssuer', name: 'atmosphere' }, secretName: 'atmosphere-wildcard' },
      },
      from: ['cloud_helm_ingress_wildcard_domain', 'cluster_issuer_type'],
    });
    expect(kinds(BRANCHES['wildcard auto with acme']).slice(-2)).toEqual(['ClusterIssuer/atmosphere', 'Certificate/atmosphere-wildcard']);
    // A supplied wildcard (issuer none) gets no Certificate.
    expect(kinds({ ...BRANCHES.none, cloud_helm_ingress_wildcard_domain: 'cloud.example.com' })).toEqual(['ClusterIssuer/self-signed']);
  });

  it('the wildcard Certificate is checked against cert-manager\'s Certificate schema', () => {
    const rendered = renderPlatform(BRANCHES['wildcard auto with acme']);
    const certificate = structuredClone(rendered.objects.at(-1)!);
    (certificate.object.spec as { issuerRef: Record<string, unknown> }).issuerRef = { kind: 'ClusterIssuer' };
    const findings = checkObjects([certificate]);
    expect(findings).toEqual([expect.objectContaining({ severity: 'error', message: expect.stringMatching(/^Certificate\/openstack\/atmosphere-wildcard: \/spec\/issuerRef must have required property 'name'/) })]);
  });

  it('a custom clouddnsb secret name names the Secret and the reference', () => {
    const rendered = renderPlatform({ ...BRANCHES['acme clouddnsb static'], cluster_issuer_acme_clouddnsb_secret_name: 'my-dns' });
    expect(kinds({ ...BRANCHES['acme clouddnsb static'], cluster_issuer_acme_clouddnsb_secret_name: 'my-dns' })).toContain('Secret/my-dns');
    expect(JSON.stringify(rendered.objects.at(-1))).toContain('"secretAccessKeySecretRef":{"name":"my-dns","key":"secret-access-key"}');
  });
});

describe('render: what the platform would fail on', () => {
  const errorsOf = (values: Record<string, unknown>) => renderInventory(values).findings.filter((f) => f.severity === 'error').map((f) => f.variable);

  it('clouddnsb without region or hosted zone id stops the deployment', () => {
    const values = { ...BRANCHES['acme clouddnsb ambient'] };
    delete values.cluster_issuer_acme_clouddnsb_region;
    delete values.cluster_issuer_acme_clouddnsb_hosted_zone_id;
    expect(errorsOf(values)).toEqual(['cluster_issuer_acme_clouddnsb_region', 'cluster_issuer_acme_clouddnsb_hosted_zone_id']);
  });

  it('rfc2136 without a TSIG algorithm stops the deployment (the platform has no default)', () => {
    const values = { ...BRANCHES['acme rfc2136'] };
    delete values.cluster_issuer_acme_rfc2136_tsig_algorithm;
    expect(errorsOf(values)).toEqual(['cluster_issuer_acme_rfc2136_tsig_algorithm']);
  });

  it('commercialca without its CA or TPP bundle stops the deployment', () => {
    const values = { ...BRANCHES['commercialca token'] };
    delete values.cluster_issuer_commercialca_ca;
    delete values.cluster_issuer_commercialca_tpp_ca_bundle;
    expect(errorsOf(values)).toEqual(expect.arrayContaining(['cluster_issuer_commercialca_ca', 'cluster_issuer_commercialca_tpp_ca_bundle']));
  });

  it('a PEM TPP bundle is refused by the schema (the field is base64)', () => {
    const findings = renderInventory({ ...BRANCHES['commercialca token'], cluster_issuer_commercialca_tpp_ca_bundle: PEM }).findings;
    expect(findings).toEqual([expect.objectContaining({ variable: 'cluster_issuer_commercialca_tpp_ca_bundle', severity: 'error' })]);
    // Checked against the release the platform pins and the newest bundled one; both refuse it.
    expect(findings[0].message).toContain('cert-manager v1.15.5 and v1.21.1 schemas');
  });

  it('every cert-manager kind it renders has the pinned and the newest schema', () => {
    for (const kind of ['ClusterIssuer', 'Certificate']) expect(crdValidators(kind).map((c) => c.version)).toEqual(['v1.15.5', 'v1.21.1']);
    expect(crdValidators('Secret')).toEqual([]);
  });

  it('commercialca with both a token and a user name/password gets no credentials secret', () => {
    const values = { ...BRANCHES['commercialca token'], cluster_issuer_commercialca_username: 'svc', cluster_issuer_commercialca_password: 'pw-1234' };
    expect(kinds(values)).not.toContain('Secret/certmgr-commercialca-credentials');
    expect(errorsOf(values)).toEqual(['cluster_issuer_commercialca_access_token']);
  });

  it('clusteroidc without a role ARN', () => {
    const values = { ...BRANCHES['acme clouddnsb clusteroidc'] };
    delete values.cluster_issuer_acme_clouddnsb_role_arn;
    expect(errorsOf(values)).toEqual(['cluster_issuer_acme_clouddnsb_role_arn']);
  });

  it('an invalid object name is an error naming the variable that made it', () => {
    const findings = renderInventory({ ...BRANCHES['acme clouddnsb static'], cluster_issuer_acme_clouddnsb_secret_name: 'My_Secret' }).findings;
    expect(findings).toEqual([expect.objectContaining({ variable: 'cluster_issuer_acme_clouddnsb_secret_name', severity: 'error' })]);
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
        if (/secret|token|password|key$|private_key/.test(name) && typeof value === 'string' && !/_name$|key_name/.test(name)) {
          expect(result, name).not.toContain(value);
        }
      }
    }
  });
});
