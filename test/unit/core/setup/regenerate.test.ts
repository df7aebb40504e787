import { describe, expect, it } from 'vitest';
import {
  commandLine,
  describeDeletion,
  selectStaleSecrets,
  summarizeSecrets,
} from '../../../../src/core/setup/regenerate.js';

const managed = (
  namespace: string,
  name: string,
  issuer = 'atmosphere',
  kind = 'ClusterIssuer',
  certificate = name.replace(/-certs$/, ''),
) => ({
  metadata: {
    namespace,
    name,
    annotations: {
      'cert-manager.io/issuer-name': issuer,
      'cert-manager.io/issuer-kind': kind,
      'cert-manager.io/certificate-name': certificate,
    },
  },
  type: 'kubernetes.io/tls',
  data: { 'tls.key': 'c2VjcmV0' },
});

describe('selecting the stale certificate secrets', () => {
  const list = {
    items: [
      managed('openstack', 'nova-api-certs'),
      managed('openstack', 'keystone-api-certs'),
      managed('monitoring', 'grafana-tls'),
      managed('openstack', 'internal-ca', 'self-signed'),
      managed('openstack', 'namespaced', 'atmosphere', 'Issuer'),
      { ...managed('openstack', 'wildcard-certs'), metadata: { ...managed('openstack', 'wildcard-certs').metadata } },
      { metadata: { namespace: 'openstack', name: 'wildcard-certs-2' }, type: 'kubernetes.io/tls' },
      { metadata: { namespace: 'openstack', name: 'db-password' }, type: 'Opaque' },
      { metadata: { name: 'no-namespace' } },
    ],
  };

  it('takes the secrets annotated with the platform ClusterIssuer, by annotation not by name', () => {
    const { stale, kept } = selectStaleSecrets(summarizeSecrets(list), {
      issuerName: 'atmosphere',
      protectedNames: ['wildcard-certs'],
    });
    expect(stale.map((s) => `${s.namespace}/${s.name}`)).toEqual([
      'monitoring/grafana-tls',
      'openstack/keystone-api-certs',
      'openstack/nova-api-certs',
    ]);
    expect(stale[2]?.certificate).toBe('nova-api');
    expect(kept).toEqual([
      {
        namespace: 'openstack',
        name: 'internal-ca',
        reason: 'issued by ClusterIssuer "self-signed", not by ClusterIssuer "atmosphere"',
      },
      {
        namespace: 'openstack',
        name: 'namespaced',
        reason: 'issued by Issuer "atmosphere", not by ClusterIssuer "atmosphere"',
      },
      {
        namespace: 'openstack',
        name: 'wildcard-certs',
        reason: expect.stringMatching(/supplied wildcard.*never deleted/),
      },
    ]);
  });

  it('ignores anything that is not a SecretList', () => {
    expect(summarizeSecrets(null)).toEqual([]);
    expect(summarizeSecrets({ items: 'x' })).toEqual([]);
  });
});

describe('commands and reports', () => {
  it('prints the exact kubectl command, quoted for a shell', () => {
    expect(commandLine({ namespace: 'openstack', name: 'nova-api-certs' })).toBe(
      'kubectl delete secret --namespace=openstack -- nova-api-certs',
    );
    expect(commandLine({ namespace: 'auth-system', name: 'a b' }, 'prod')).toBe(
      "kubectl --context=prod delete secret --namespace=auth-system -- 'a b'",
    );
  });

  it('prints the delete command with the name after --', () => {
    expect(commandLine({ namespace: 'openstack', name: '--all' }, 'prod')).toBe(
      'kubectl --context=prod delete secret --namespace=openstack -- --all',
    );
  });

  it('reports a run that stopped half-way: what was deleted, what failed, what is left and how to finish', () => {
    const a = { namespace: 'openstack', name: 'a' };
    const b = { namespace: 'openstack', name: 'b' };
    const c = { namespace: 'monitoring', name: 'c' };
    const lines = describeDeletion({ deleted: [a], failed: { secret: b, error: 'forbidden' }, remaining: [c] }, 'prod');
    expect(lines).toEqual([
      'Deleted 1: openstack/a',
      'Failed to delete openstack/b: forbidden',
      'Not deleted (2): openstack/b, monitoring/c',
      'To finish by hand once the cause is fixed:',
      '  kubectl --context=prod delete secret --namespace=openstack -- b',
      '  kubectl --context=prod delete secret --namespace=monitoring -- c',
    ]);
    expect(describeDeletion({ deleted: [a, b], remaining: [] })).toEqual(['Deleted 2: openstack/a, openstack/b']);
  });
});
