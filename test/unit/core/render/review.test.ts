import { describe, expect, it } from 'vitest';
import { clusterReview } from '../../../../src/core/render/review.js';

const acme = { cluster_issuer_type: 'acme', cluster_issuer_acme_email: 'ops@example.com', cluster_issuer_acme_solver: 'dnsc', cluster_issuer_acme_dnsc_api_token: 'api-token-value-1' };

describe('cluster review', () => {
  it('shows the wildcard Certificate a wildcard domain adds, and removes it when the domain goes', () => {
    const wildcard = { ...acme, cloud_helm_ingress_wildcard_domain: 'cloud.example.com' };
    const added = clusterReview(acme, wildcard);
    expect(added.changes).toEqual([{ object: 'Certificate openstack/atmosphere-wildcard', change: 'added', fields: [] }]);
    expect(added.summary).toEqual(['+ Certificate openstack/atmosphere-wildcard (new)']);
    expect(added.diff).toContain('+    - "*.cloud.example.com"');

    const moved = clusterReview(wildcard, { ...wildcard, cloud_helm_ingress_wildcard_domain: 'new.example.com' });
    expect(moved.changes).toEqual([{ object: 'Certificate openstack/atmosphere-wildcard', change: 'changed', fields: ['spec.dnsNames'] }]);
    expect(clusterReview(wildcard, acme).changes).toEqual([{ object: 'Certificate openstack/atmosphere-wildcard', change: 'removed', fields: [] }]);
    expect(added.diff).not.toContain('api-token-value-1');
  });
});
