import { describe, expect, it } from 'vitest';
import { checkObjects } from '../../../../src/core/render/check.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';
import { BRANCHES } from '../../../helpers/render-branches.js';

const kinds = (values: Record<string, unknown>) =>
  renderPlatform(values).objects.map(({ object }) => `${object.kind}/${object.metadata.name}`);

describe('render: every branch gives objects cert-manager and the API server accept', () => {
  for (const [branch, values] of Object.entries(BRANCHES)) {
    it(branch, () => {
      const rendered = renderPlatform(values);
      expect(rendered.findings).toEqual([]);
      expect(checkObjects(rendered.objects)).toEqual([]);
      expect(rendered.objects[0].object).toMatchObject({ kind: 'ClusterIssuer', metadata: { name: 'self-signed' } });
      // The issuer comes after its credentials; only the wildcard Certificate (made by the ingress role) follows it.
      const ids = rendered.objects.map(({ object }) => `${object.kind}/${object.metadata.name}`);
      const wildcard = values.openstack_helm_ingress_wildcard_domain ? ['Certificate/atmosphere-wildcard'] : [];
      if (values.cluster_issuer_type !== 'none')
        expect(ids.slice(ids.indexOf('ClusterIssuer/atmosphere'))).toEqual(['ClusterIssuer/atmosphere', ...wildcard]);
    });
  }
});

describe('render: objects per branch', () => {
  it('issuer none creates only the self-signed ClusterIssuer', () => {
    expect(kinds(BRANCHES.none)).toEqual(['ClusterIssuer/self-signed']);
  });

  it('http01 uses the platform ingress class and the public ACME server by default', () => {
    const issuer = renderPlatform(BRANCHES['acme http01']).objects.at(-1)!.object as unknown as {
      spec: { acme: Record<string, unknown> };
    };
    expect(issuer.spec.acme).toMatchObject({
      server: 'https://acme-v02.api.letsencrypt.org/directory',
      privateKeySecretRef: { name: 'cert-manager-issuer-account-key' },
      solvers: [{ http01: { ingress: { class: 'atmosphere' } } }],
    });
  });

  it('kubernetes adds the service account, its token-request Role and the binding to the controller', () => {
    expect(kinds(BRANCHES['acme route53 kubernetes'])).toEqual([
      'ClusterIssuer/self-signed',
      'ServiceAccount/cert-manager-route53',
      'Role/cert-manager-route53-tokenrequest',
      'RoleBinding/cert-manager-route53-tokenrequest',
      'ClusterIssuer/atmosphere',
    ]);
    const issuer = renderPlatform(BRANCHES['acme route53 kubernetes']).objects.at(-1)!.object as unknown as {
      spec: { acme: { solvers: unknown[] } };
    };
    expect(issuer.spec.acme.solvers[0]).toEqual({
      dns01: {
        route53: {
          region: 'eu-west-1',
          hostedZoneID: 'Z123',
          role: 'arn:aws:iam::123456789012:role/dns',
          auth: { kubernetes: { serviceAccountRef: { name: 'cert-manager-route53' } } },
        },
      },
    });
  });

  it("the platform profile uses the platform's own object names", () => {
    const names = renderPlatform(BRANCHES['acme route53 static'], 'platform').objects.map(
      ({ object }) => object.metadata.name,
    );
    expect(names).toContain('cert-manager-issuer-route53-credentials');
    const godaddy = renderPlatform(BRANCHES['acme godaddy'], 'platform');
    expect(godaddy.helm).toEqual([
      {
        name: 'cert-manager-webhook-godaddy',
        namespace: 'cert-manager',
        chart: '/usr/local/src/godaddy-webhook',
        values: { groupName: 'godaddy.cert-manager.atmosphere.dev' },
      },
    ]);
  });

  it('wildcard auto: Certificate openstack/atmosphere-wildcard for *.<domain>, issued by ClusterIssuer atmosphere, after it', () => {
    const rendered = renderPlatform(BRANCHES['wildcard auto with acme']);
    expect(rendered.objects.at(-1)).toEqual({
      object: {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Certificate',
        metadata: { name: 'atmosphere-wildcard', namespace: 'openstack' },
        spec: {
          dnsNames: ['*.cloud.example.com'],
          issuerRef: { kind: 'ClusterIssuer', name: 'atmosphere' },
          secretName: 'atmosphere-wildcard',
        },
      },
      from: ['openstack_helm_ingress_wildcard_domain', 'cluster_issuer_type'],
      part: 'wildcard',
    });
    expect(kinds(BRANCHES['wildcard auto with acme']).slice(-2)).toEqual([
      'ClusterIssuer/atmosphere',
      'Certificate/atmosphere-wildcard',
    ]);
    // The ingress role makes the Certificate whenever the domain is defined, issuer none too: a trap, said as such.
    const none = renderPlatform({ ...BRANCHES.none, openstack_helm_ingress_wildcard_domain: 'cloud.example.com' });
    expect(none.objects.map(({ object }) => `${object.kind}/${object.metadata.name}`)).toEqual([
      'ClusterIssuer/self-signed',
      'Certificate/atmosphere-wildcard',
    ]);
    expect(none.findings.map((f) => f.variable)).toEqual(['openstack_helm_ingress_wildcard_domain']);
  });

  it("the wildcard Certificate is checked against cert-manager's Certificate schema", () => {
    const rendered = renderPlatform(BRANCHES['wildcard auto with acme']);
    const certificate = structuredClone(rendered.objects.at(-1)!);
    (certificate.object.spec as { issuerRef: Record<string, unknown> }).issuerRef = { kind: 'ClusterIssuer' };
    const findings = checkObjects([certificate]);
    expect(findings).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringMatching(
          /^Certificate\/openstack\/atmosphere-wildcard: \/spec\/issuerRef must have required property 'name'/,
        ),
      }),
    ]);
  });

  it('a custom route53 secret name names the Secret and the reference', () => {
    const rendered = renderPlatform({
      ...BRANCHES['acme route53 static'],
      cluster_issuer_acme_route53_secret_name: 'my-dns',
    });
    expect(kinds({ ...BRANCHES['acme route53 static'], cluster_issuer_acme_route53_secret_name: 'my-dns' })).toContain(
      'Secret/my-dns',
    );
    expect(JSON.stringify(rendered.objects.at(-1))).toContain(
      '"secretAccessKeySecretRef":{"name":"my-dns","key":"secret-access-key"}',
    );
  });
});
