import { describe, expect, it } from 'vitest';
import { summarizeSecrets } from '../../../../src/core/setup/regenerate.js';
import { selectIssuedSecrets, summarizeCertificates } from '../../../../src/core/setup/regenerate-select.js';

const secret = (name: string, type: string, annotations: Record<string, string> = {}, namespace = 'openstack') => ({
  metadata: { namespace, name, annotations },
  type,
});
const by = (issuer: string, kind = 'ClusterIssuer') => ({
  'cert-manager.io/issuer-name': issuer,
  'cert-manager.io/issuer-kind': kind,
});
const certificate = (name: string, secretName: string, issuerRef: Record<string, string>, namespace = 'openstack') => ({
  metadata: { namespace, name },
  spec: { secretName, issuerRef },
});

const secrets = summarizeSecrets({
  items: [
    secret('db-password', 'Opaque', by('atmosphere')),
    secret('orphan-tls', 'kubernetes.io/tls', by('atmosphere')),
    secret('nova-api-certs', 'kubernetes.io/tls', by('atmosphere')),
    secret('glance-api-certs', 'kubernetes.io/tls'),
    secret('namespaced-certs', 'kubernetes.io/tls'),
    secret('moved-certs', 'kubernetes.io/tls', by('atmosphere')),
    secret('wildcard', 'kubernetes.io/tls', by('atmosphere')),
    secret('rabbitmq-password', 'Opaque'),
    secret('helm-release', 'helm.sh/release.v1'),
  ],
});
const certificates = summarizeCertificates({
  items: [
    certificate('nova-api', 'nova-api-certs', { name: 'atmosphere', kind: 'ClusterIssuer' }),
    certificate('glance-api', 'glance-api-certs', { name: 'atmosphere', kind: 'ClusterIssuer' }),
    // issuerRef without kind: cert-manager reads it as a namespaced Issuer
    certificate('namespaced', 'namespaced-certs', { name: 'atmosphere' }),
    certificate('moved', 'moved-certs', { name: 'corp', kind: 'ClusterIssuer' }),
    certificate('wildcard', 'wildcard', { name: 'atmosphere', kind: 'ClusterIssuer' }),
    { metadata: { name: 'broken' } },
  ],
});

describe('which secrets regenerate may delete', () => {
  it('only TLS secrets a Certificate of the namespace issues again from the replaced ClusterIssuer', () => {
    const selection = selectIssuedSecrets(secrets, certificates, {
      issuerName: 'atmosphere',
      protectedNames: ['wildcard'],
    });
    expect(selection.stale).toEqual([
      { namespace: 'openstack', name: 'glance-api-certs', certificate: 'glance-api' },
      { namespace: 'openstack', name: 'nova-api-certs', certificate: 'nova-api' },
    ]);
    const why = Object.fromEntries(selection.kept.map((k) => [k.name, k.reason]));
    expect(why['db-password']).toMatch(/^not a TLS secret \(type Opaque\)/);
    expect(why['orphan-tls']).toMatch(/^no Certificate in openstack names it/);
    expect(why['namespaced-certs']).toBe('issued by Issuer "atmosphere", not by ClusterIssuer "atmosphere"');
    expect(why['moved-certs']).toMatch(/^Certificate moved now names ClusterIssuer "corp"/);
    expect(why.wildcard).toMatch(/supplied wildcard/);
    expect(selection.unrelated).toBe(2);
    expect(selection.undecided).toBeUndefined();
  });

  it('deletes nothing when the issuer name is a template, and says why for each', () => {
    const selection = selectIssuedSecrets(secrets, certificates, { issuerName: null, protectedNames: [] });
    expect(selection.stale).toEqual([]);
    expect(selection.undecided).toMatch(/template/);
    expect(selection.kept.find((k) => k.name === 'nova-api-certs')?.reason).toMatch(/template/);
  });

  it('another issuer name: the secrets of "atmosphere" are kept', () => {
    const selection = selectIssuedSecrets(secrets, certificates, { issuerName: 'corp', protectedNames: [] });
    expect(selection.stale).toEqual([]);
    expect(selection.kept.find((k) => k.name === 'nova-api-certs')?.reason).toBe(
      'issued by ClusterIssuer "atmosphere", not by ClusterIssuer "corp"',
    );
  });
});
