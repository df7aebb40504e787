import { describe, expect, it } from 'vitest';
import { AnsibleTagged } from '../../../../src/core/inventory/ansible-tagged.js';
import {
  compareWithCluster,
  issuerDrift,
  renderingsToCompare,
  secretsToCompare,
  type LiveState,
} from '../../../../src/core/render/drift.js';
import { renderPlatform } from '../../../../src/core/render/objects.js';

const acme = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com' };
const issuerOf = (values: Record<string, unknown>) => renderPlatform(values).objects.at(-1)!.object;

describe('issuer drift', () => {
  it('names the kind of issuer and solver the cluster runs and the inventory renders', () => {
    const cloudflare = renderPlatform({
      ...acme,
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: 't',
    }).objects;
    expect(issuerDrift(cloudflare, { issuer: issuerOf(acme), secretKeys: new Map() })).toMatchObject({
      live: 'acme/http01',
      rendered: 'acme/cloudflare',
    });
    // The platform's self-signed issuer is a CA issuer over the self-signed CA's Secret: said as self-signed.
    expect(
      issuerDrift(renderPlatform(acme).objects, {
        issuer: issuerOf({ cluster_issuer_type: 'self-signed' }),
        secretKeys: new Map(),
      }),
    ).toMatchObject({ live: 'self-signed', rendered: 'acme/http01' });
  });

  it('a vaulted or templated value cannot differ: it is known only at deploy time', () => {
    const live = issuerOf(acme);
    for (const email of [
      new AnsibleTagged('!vault', '$ANSIBLE_VAULT;1.1;AES256\n3132\n'),
      "{{ lookup('env', 'ACME_EMAIL') }}",
    ]) {
      const rendered = renderPlatform({ ...acme, cluster_issuer_acme_email: email }).objects;
      expect(issuerDrift(rendered, { issuer: live, secretKeys: new Map() }).differences).toEqual([]);
    }
  });

  it('an issuer left over while the inventory says none', () => {
    const rendered = renderPlatform({ cluster_issuer_type: 'none' }).objects;
    expect(issuerDrift(rendered, { issuer: issuerOf(acme), secretKeys: new Map() })).toMatchObject({
      leftover: true,
      differences: [expect.any(String)],
    });
    expect(issuerDrift(rendered, { secretKeys: new Map() }).differences).toEqual([]);
  });
});

describe('comparing with the cluster when the inventory does not say its names', () => {
  const cloudflare = {
    ...acme,
    cluster_issuer_acme_solver: 'cloudflare',
    cluster_issuer_acme_cloudflare_api_token: 'api-token-value-1',
  };
  const liveOf = (values: Record<string, unknown>, names: 'spec' | 'platform'): LiveState => {
    const objects = renderPlatform(values, names).objects;
    const secretKeys = new Map(
      objects
        .filter((o) => o.object.kind === 'Secret')
        .map((o) => [o.object.metadata.name, Object.keys(o.object.stringData as object)]),
    );
    return { issuer: objects.find((o) => o.object.metadata.name === 'atmosphere')!.object, secretKeys };
  };

  it("renders in both names, the inventory's first (stated only when the inventory says it)", () => {
    expect(
      renderingsToCompare({ values: acme, profile: 'platform', stated: true }).map((r) => [r.profile, r.stated]),
    ).toEqual([
      ['platform', true],
      ['spec', false],
    ]);
    expect(renderingsToCompare({ values: acme, profile: 'spec', stated: false }).map((r) => r.profile)).toEqual([
      'spec',
      'platform',
    ]);
  });

  it('accepts the rendering the cluster matches, and says it chose', () => {
    const renderings = renderingsToCompare({ values: cloudflare, profile: 'spec', stated: false });
    expect(compareWithCluster(renderings, liveOf(cloudflare, 'platform'))).toMatchObject({
      profile: 'platform',
      guessed: true,
      differences: [],
    });
    expect(compareWithCluster(renderings, liveOf(cloudflare, 'spec'))).toMatchObject({
      profile: 'spec',
      guessed: true,
      differences: [],
    });
  });

  it('matching neither, reports against the closer one', () => {
    const renderings = renderingsToCompare({ values: cloudflare, profile: 'spec', stated: false });
    const live = liveOf({ ...cloudflare, cluster_issuer_acme_email: 'old@example.com' }, 'platform');
    expect(compareWithCluster(renderings, live)).toMatchObject({
      profile: 'platform',
      guessed: true,
      differences: [
        'spec.acme.email: the cluster has "old@example.com", the inventory makes "ops@example.com"',
        'spec.acme.solvers[0].dns01.cloudflare.email: the cluster has "old@example.com", the inventory makes "ops@example.com"',
      ],
    });
  });

  it('stated names, a cluster deployed with the other names: a naming mismatch with its fix, not drift', () => {
    const drift = compareWithCluster(
      renderingsToCompare({ values: cloudflare, profile: 'spec', stated: true }),
      liveOf(cloudflare, 'platform'),
    );
    expect(drift).toMatchObject({
      profile: 'spec',
      guessed: false,
      namingMismatch: { inventory: 'spec', cluster: 'platform' },
    });
    expect(drift.differences).toEqual([drift.namingMismatch!.message]);
    expect(drift.namingMismatch!.advice).toContain('--names platform');
  });

  it('stated names, a cluster matching neither: drift against the stated names', () => {
    const live = liveOf({ ...cloudflare, cluster_issuer_acme_email: 'old@example.com' }, 'platform');
    const drift = compareWithCluster(renderingsToCompare({ values: cloudflare, profile: 'spec', stated: true }), live);
    expect(drift.namingMismatch).toBeUndefined();
    expect(drift.differences).toContain('Secret cert-manager/dnsc-api-token does not exist in the cluster.');
  });

  it('issuer none renders the same in both: nothing was guessed', () => {
    const renderings = renderingsToCompare({ values: { cluster_issuer_type: 'none' }, profile: 'spec', stated: false });
    expect(compareWithCluster(renderings, { secretKeys: new Map() })).toMatchObject({
      guessed: false,
      differences: [],
    });
  });
});

describe('the credential Secrets compared', () => {
  it("a webhook's Secret is looked for in its Helm release's namespace", () => {
    const values = {
      cluster_issuer_acme_email: 'ops@example.com',
      cluster_issuer_acme_solver: 'godaddy',
      cluster_issuer_acme_godaddy_api_key: 'k',
      cluster_issuer_acme_godaddy_secret_key: 's',
      cluster_issuer_acme_godaddy_helm_release_namespace: 'webhooks',
    };
    expect(secretsToCompare(renderPlatform(values, 'platform').objects)).toEqual([
      { name: 'godaddy-api-key', namespace: 'webhooks', keys: ['token'] },
    ]);
    const drift = issuerDrift(renderPlatform(values, 'platform').objects, { issuer: undefined, secretKeys: new Map() });
    expect(drift.differences[0]).toMatch(/does not exist/);
  });

  it('the issuer compared is the one the inventory names', () => {
    const objects = renderPlatform({
      cluster_issuer_acme_email: 'ops@example.com',
      atmosphere_ingress_cluster_issuer: 'corp',
    }).objects;
    expect(issuerDrift(objects, { secretKeys: new Map() }).differences).toEqual([
      'The ClusterIssuer "corp" does not exist in the cluster.',
    ]);
  });
});
