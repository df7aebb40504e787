/** The one reader of a live ClusterIssuer or Issuer: what it is as the platform deploys it. */
import { describe, expect, it } from 'vitest';
import { isOfType, readLiveIssuer, selfSignedCaSecrets } from '../../../../src/core/kube/live-issuer.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';

const clusterIssuer = (spec: Record<string, unknown>, name = 'atmosphere') => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'ClusterIssuer',
  metadata: { name },
  spec,
});

describe('readLiveIssuer', () => {
  it.each<[string, Record<string, unknown>, string, string | undefined, string]>([
    [
      'ACME with HTTP-01',
      { acme: { server: 'https://acme.test/directory', solvers: [{ http01: { ingress: { class: 'atmosphere' } } }] } },
      'acme',
      'acme',
      'acme/http01',
    ],
    [
      'ACME with route53',
      { acme: { solvers: [{ dns01: { route53: { region: 'us-east-1' } } }] } },
      'acme',
      'acme',
      'acme/route53',
    ],
    [
      'ACME with a webhook solver',
      {
        acme: {
          solvers: [
            { dns01: { cnameStrategy: 'Follow', webhook: { groupName: 'godaddy.cert-manager.atmosphere.dev' } } },
          ],
        },
      },
      'acme',
      'acme',
      'acme/webhook',
    ],
    ['venafi', { venafi: { zone: 'atmosphere' } }, 'venafi', 'venafi', 'venafi'],
    ['a CA over the CA Secret', { ca: { secretName: 'cert-manager-issuer-ca' } }, 'ca', 'ca', 'ca'],
    [
      "the platform's self-signed type: a CA over *-selfsigned-ca",
      { ca: { secretName: 'cert-manager-selfsigned-ca' } },
      'ca',
      'self-signed',
      'self-signed',
    ],
    ['the selfSigned root', { selfSigned: {} }, 'selfSigned', undefined, 'selfSigned'],
    ["vault (never the platform's)", { vault: { server: 'https://vault' } }, 'vault', undefined, 'vault'],
    ['nothing cert-manager knows', {}, 'unknown', undefined, 'unknown'],
  ])('%s', (_, spec, mechanism, platformType, solver) => {
    const issuer = readLiveIssuer(clusterIssuer(spec));
    expect(issuer).toMatchObject({
      kind: 'ClusterIssuer',
      name: 'atmosphere',
      ref: 'ClusterIssuer atmosphere',
      mechanism,
      solver,
      secretNamespace: 'cert-manager',
    });
    expect(issuer.platformType).toBe(platformType);
  });

  it("a namespaced Issuer reads its Secret in its own namespace, and is never the platform's self-signed type", () => {
    const issuer = readLiveIssuer({
      kind: 'Issuer',
      metadata: { name: 'octavia-client', namespace: 'openstack' },
      spec: { ca: { secretName: 'octavia-client-selfsigned-ca' } },
    });
    expect(issuer).toMatchObject({
      ref: 'Issuer openstack/octavia-client',
      secretNamespace: 'openstack',
      caSecret: 'octavia-client-selfsigned-ca',
      platformType: 'ca',
    });
  });

  it('a renamed self-signed CA Secret is known by the Certificate that makes it', () => {
    const objects = renderPlatform({
      cluster_issuer_type: 'self-signed',
      cluster_issuer_self_signed_secret_name: 'my-root',
    }).objects.map((o) => o.object);
    const hints = { selfSignedCaSecrets: selfSignedCaSecrets(objects) };
    expect(hints.selfSignedCaSecrets).toEqual(['my-root']);
    const rendered = objects.find((o) => o.kind === 'ClusterIssuer' && o.metadata.name === 'atmosphere');
    expect(readLiveIssuer(rendered, hints)).toMatchObject({ platformType: 'self-signed', solver: 'self-signed' });
    expect(readLiveIssuer(rendered)).toMatchObject({ platformType: 'ca' });
  });

  it('reads the Ready condition with its generation', () => {
    const issuer = readLiveIssuer({
      ...clusterIssuer({ selfSigned: {} }),
      metadata: { name: 'self-signed', generation: 2 },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'IsReady', observedGeneration: 1 }] },
    });
    expect(issuer.ready).toMatchObject({ status: 'True', reason: 'IsReady', stale: true });
  });
});

describe('isOfType', () => {
  it("compares with the inventory's cluster_issuer_type, in the platform's words", () => {
    expect(isOfType(readLiveIssuer(clusterIssuer({ venafi: {} })), 'venafi')).toBe(true);
    expect(isOfType(readLiveIssuer(clusterIssuer({ venafi: {} })), 'commercialca')).toBe(false);
    expect(
      isOfType(readLiveIssuer(clusterIssuer({ ca: { secretName: 'cert-manager-selfsigned-ca' } })), 'self-signed'),
    ).toBe(true);
    expect(isOfType(readLiveIssuer(clusterIssuer({ ca: { secretName: 'cert-manager-selfsigned-ca' } })), 'ca')).toBe(
      false,
    );
    expect(isOfType(readLiveIssuer(clusterIssuer({ selfSigned: {} })), 'self-signed')).toBe(false);
  });
});
