import { describe, expect, it } from 'vitest';
import { clusterReview } from '../../../../src/core/render/review.js';

const acme = {
  cluster_issuer_type: 'acme',
  cluster_issuer_acme_email: 'ops@example.com',
  cluster_issuer_acme_solver: 'cloudflare',
  cluster_issuer_acme_cloudflare_api_token: 'api-token-value-1',
};

describe('cluster review', () => {
  it('shows the wildcard Certificate a wildcard domain adds, and removes it when the domain goes', () => {
    const wildcard = { ...acme, openstack_helm_ingress_wildcard_domain: 'cloud.example.com' };
    const added = clusterReview(acme, wildcard);
    expect(added.changes).toEqual([
      { object: 'Certificate openstack/atmosphere-wildcard', change: 'added', fields: [] },
    ]);
    expect(added.summary).toEqual(['+ Certificate openstack/atmosphere-wildcard (new)']);
    expect(added.diff).toContain('+    - "*.cloud.example.com"');

    const moved = clusterReview(wildcard, { ...wildcard, openstack_helm_ingress_wildcard_domain: 'new.example.com' });
    expect(moved.changes).toEqual([
      { object: 'Certificate openstack/atmosphere-wildcard', change: 'changed', fields: ['spec.dnsNames'] },
    ]);
    expect(clusterReview(wildcard, acme).changes).toEqual([
      { object: 'Certificate openstack/atmosphere-wildcard', change: 'removed', fields: [] },
    ]);
    expect(added.diff).not.toContain('api-token-value-1');
  });

  it('a changed secret value shows as changed, never its value; no change says so', () => {
    const before = {
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'a@example.com',
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: 'old-tok',
    };
    const review = clusterReview(before, { ...before, cluster_issuer_acme_cloudflare_api_token: 'new-tok' });
    expect(review.summary).toEqual(['~ Secret cert-manager/cloudflare-api-token: stringData.api-token']);
    expect(review.diff).toContain('+  api-token: "******** (changed)"');
    expect(review.diff).not.toMatch(/old-tok|new-tok/);
    expect(clusterReview(before, before).changes).toEqual([]);
  });

  it('objects of the old branch are listed as no longer made', () => {
    const before = {
      cluster_issuer_type: 'acme',
      cluster_issuer_acme_email: 'a@example.com',
      cluster_issuer_acme_solver: 'cloudflare',
      cluster_issuer_acme_cloudflare_api_token: 't',
    };
    const review = clusterReview(before, { cluster_issuer_type: 'self-signed' });
    expect(review.changes.map((c) => `${c.change} ${c.object}`)).toEqual([
      'added Certificate cert-manager/self-signed-ca',
      'changed ClusterIssuer atmosphere',
      'removed Secret cert-manager/cloudflare-api-token',
    ]);
  });
});
