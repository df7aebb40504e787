import { describe, expect, it } from 'vitest';
import { conditionOf, ingressClassOf, issuerNameOf } from '../../../../src/core/kube/platform.js';

describe('cert-manager conditions', () => {
  it('finds a condition by type, and nothing in an object without conditions', () => {
    const issuer = { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ErrRegisterACMEAccount' }] } };
    expect(conditionOf(issuer, 'Ready')).toMatchObject({ status: 'False', reason: 'ErrRegisterACMEAccount' });
    expect(conditionOf(issuer, 'Denied')).toBeUndefined();
    for (const object of [undefined, null, {}, { status: {} }, { status: { conditions: 'Ready' } }])
      expect(conditionOf(object, 'Ready')).toBeUndefined();
  });
});

describe("the issuer name and ingress class from the inventory, with Ansible's rules", () => {
  it.each([
    [{}, 'atmosphere'],
    [{ atmosphere_ingress_cluster_issuer: 'corp' }, 'corp'],
    [{ atmosphere_ingress_cluster_issuer: 'corp' }, 'corp'],
    [{ cluster_issuer_name: 'edge', atmosphere_ingress_cluster_issuer: 'corp' }, 'edge'],
    // Defined but empty or null: the default does not apply, and no object can carry that name.
    [{ cluster_issuer_name: '' }, null],
    [{ cluster_issuer_name: null }, null],
    // A template naming one variable is followed; along the role's chain an absent one is its default.
    [{ cluster_issuer_name: '{{ atmosphere_ingress_cluster_issuer }}' }, 'atmosphere'],
    [{ cluster_issuer_name: '{{ site_issuer }}', site_issuer: 'lab' }, 'lab'],
    [{ cluster_issuer_name: '{{ site_issuer }}' }, null],
    [{ cluster_issuer_name: "{{ lookup('env', 'ISSUER') }}" }, null],
  ])('issuerNameOf(%j) is %j', (vars, name) => {
    expect(issuerNameOf(vars)).toBe(name);
  });

  it('the ingress class follows the same chain', () => {
    expect(ingressClassOf({})).toBe('atmosphere');
    expect(ingressClassOf({ atmosphere_ingress_class_name: 'nginx' })).toBe('nginx');
    expect(
      ingressClassOf({ cluster_issuer_acme_http01_ingress_class: 'traefik', atmosphere_ingress_class_name: 'nginx' }),
    ).toBe('traefik');
    expect(ingressClassOf({ atmosphere_ingress_class_name: '' })).toBeNull();
  });
});
