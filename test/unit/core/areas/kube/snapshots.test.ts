/** Which namespaces the kube checks look at. */
import { describe, expect, it } from 'vitest';
import { namespacesInScope } from '../../../../../src/core/areas/kube/snapshots.js';
import { ingress } from '../../../../helpers/cert-manager-objects.js';

const facts = { issuerName: 'letsencrypt-prod', ingressClass: 'nginx', suppliedSecret: 'wildcard' };
describe('namespacesInScope', () => {
  it.each<[string, ReturnType<typeof ingress>[], string | null, string[]]>([
    ['the platform namespaces without any ingress', [], 'letsencrypt-prod', []],
    [
      'a namespace whose ingress carries the platform issuer',
      [ingress('a', 'billing', 'b.test', 's', 'letsencrypt-prod')],
      'letsencrypt-prod',
      ['billing'],
    ],
    [
      'not one carrying another issuer',
      [ingress('a', 'billing', 'b.test', 's', 'someone-else')],
      'letsencrypt-prod',
      [],
    ],
    [
      'any issuer when the name is a template',
      [ingress('a', 'billing', 'b.test', 's', 'someone-else')],
      null,
      ['billing'],
    ],
    [
      'a namespace whose ingress uses the supplied wildcard',
      [ingress('a', 'docs', 'd.test', 'wildcard', null)],
      'letsencrypt-prod',
      ['docs'],
    ],
  ])('%s', (_, ingresses, issuerName, extra) => {
    expect(namespacesInScope(ingresses, { ...facts, issuerName })).toEqual([
      'openstack',
      'auth-system',
      'monitoring',
      ...extra,
    ]);
  });
});
