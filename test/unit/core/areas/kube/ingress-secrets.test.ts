/** What a set of ingresses and secrets means (kube.ingress-secrets), on fixtures, without a cluster. */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ingressSecretsResult,
  judgeIngresses,
  type IngressObject,
  type IngressSnapshot,
  type SecretLookup,
} from '../../../../../src/core/areas/kube/ingress-secrets.js';
import { createPki, type Pki } from '../../../../servers/tls-endpoints.js';

let pki: Pki;
beforeAll(() => {
  pki = createPki('ingress judgement');
});

const ingress = (
  ns: string,
  name: string,
  hosts: string[],
  secretName: string | undefined,
  options: { annotations?: Record<string, string>; ruleHosts?: string[]; labels?: Record<string, string> } = {},
): IngressObject => ({
  metadata: { name, namespace: ns, annotations: options.annotations, labels: options.labels },
  spec: { tls: [{ hosts, secretName }], rules: (options.ruleHosts ?? hosts).map((host) => ({ host })) },
});
const issued = { 'cert-manager.io/cluster-issuer': 'atmosphere' };
// The judgement reads names and types, not keys: P-256 leaves cost nothing to make, RSA ones 0.1 s each.
const found = (names: string[], type = 'kubernetes.io/tls'): SecretLookup => ({
  state: 'found',
  type,
  certPem: pki.leaf(names, { kind: 'p256' }).cert + pki.intermediate.cert,
});

function judge(
  ingresses: IngressObject[],
  secrets: Record<string, SecretLookup>,
  extra: Partial<IngressSnapshot> = {},
) {
  const snapshot: IngressSnapshot = {
    ingresses,
    namespaces: ['openstack', 'auth-system', 'monitoring'],
    platformIssuer: 'atmosphere',
    secrets: new Map(Object.entries(secrets)),
    issuerType: 'acme',
    ...extra,
  };
  const findings = judgeIngresses(snapshot);
  return { findings, result: ingressSecretsResult(snapshot, findings), kinds: findings.map((f) => f.kind) };
}

describe('judgeIngresses', () => {
  it('passes individual secrets and a wildcard that cover their hosts, ignoring the HTTP-01 solver ingress on the same host', () => {
    const { findings, result } = judge(
      [
        ingress('openstack', 'keystone', ['identity.cloud.test'], 'keystone-api-certs', { annotations: issued }),
        ingress('openstack', 'nova', ['compute.cloud.test'], 'wildcard'),
        ingress('auth-system', 'keycloak', ['keycloak.cloud.test'], 'keycloak.cloud.test-tls', { annotations: issued }),
        ingress('openstack', 'cm-acme-http-solver-abcde', ['identity.cloud.test'], undefined, {
          labels: { 'acme.cert-manager.io/http01-solver': 'true' },
        }),
      ],
      {
        'openstack/keystone-api-certs': found(['identity.cloud.test']),
        'openstack/wildcard': found(['*.cloud.test']),
        'auth-system/keycloak.cloud.test-tls': found(['keycloak.cloud.test']),
      },
    );
    expect(findings).toEqual([]);
    expect(result).toMatchObject({ status: 'ok', facts: { ingresses: 3 } });
  });

  it('fails a missing secret with advice that depends on who should make it; a missing supplied copy is left to kube.wildcard-secret', () => {
    const { findings } = judge(
      [
        ingress('monitoring', 'grafana', ['grafana.cloud.test'], 'wildcard'),
        ingress('openstack', 'glance', ['image.cloud.test'], 'glance-api-certs', { annotations: issued }),
      ],
      {},
      { issuerType: 'none', suppliedSecret: 'wildcard' },
    );
    expect(findings.map((f) => [f.ingress, f.kind, f.status])).toEqual([
      ['openstack/glance', 'secret-missing', 'fail'],
    ]);
    expect(findings[0]!.fix).toMatch(/cloudgate status certificate openstack\/glance-api-certs/);
  });

  it('fails a secret of the wrong type and one whose certificate does not cover a host (a wildcard covers one label)', () => {
    const { findings } = judge(
      [
        ingress('openstack', 'nova', ['compute.cloud.test'], 'nova-api-certs'),
        ingress('openstack', 'placement', ['placement.api.cloud.test'], 'wildcard'),
      ],
      {
        'openstack/nova-api-certs': found(['compute.cloud.test'], 'Opaque'),
        'openstack/wildcard': found(['*.cloud.test']),
      },
    );
    expect(findings.map((f) => [f.ingress, f.kind])).toEqual([
      ['openstack/nova', 'wrong-type'],
      ['openstack/placement', 'not-covered'],
    ]);
    expect(findings[0]!.problem).toContain('type Opaque');
    expect(findings[1]!.problem).toContain('names *.cloud.test');
    expect(findings[1]!.problem).toContain('does not cover placement.api.cloud.test');
  });

  it('fails the supplied wildcard handed to cert-manager by an issuer annotation', () => {
    const { findings } = judge(
      [ingress('auth-system', 'keycloak', ['keycloak.cloud.test'], 'wildcard', { annotations: issued })],
      { 'auth-system/wildcard': found(['*.cloud.test']) },
      { issuerType: 'none', suppliedSecret: 'wildcard' },
    );
    expect(findings.map((f) => [f.ingress, f.kind, f.status])).toEqual([
      ['auth-system/keycloak', 'issuer-on-supplied', 'fail'],
    ]);
    expect(findings[0]!.fix).toContain(
      'kubectl annotate ingress keycloak -n auth-system cert-manager.io/cluster-issuer-',
    );
  });

  it('warns about a ClusterIssuer atmosphere left over with issuer none, naming the ingresses still pointing at it', () => {
    const secrets = {
      'openstack/wildcard': found(['*.cloud.test']),
      'monitoring/grafana-tls': found(['grafana.cloud.test']),
    };
    const ingresses = [
      ingress('openstack', 'nova', ['compute.cloud.test'], 'wildcard'),
      ingress('monitoring', 'grafana', ['grafana.cloud.test'], 'grafana-tls', { annotations: issued }),
    ];
    const { findings, result } = judge(ingresses, secrets, {
      issuerType: 'none',
      suppliedSecret: 'wildcard',
      platformIssuerExists: true,
    });
    expect(findings.map((f) => [f.ingress, f.kind, f.status])).toEqual([
      ['monitoring/grafana', 'leftover-issuer', 'warn'],
    ]);
    expect(result.status).toBe('warn');
    expect(findings[0]!.fix).toContain('kubectl delete clusterissuer atmosphere');
    // The same issuer is expected with any other issuer type.
    expect(judge(ingresses, secrets, { issuerType: 'acme', platformIssuerExists: true }).findings).toEqual([]);
  });

  it('reports two ingresses claiming one host: fail with different secrets, warn with the same', () => {
    const secrets = { 'openstack/a-certs': found(['api.cloud.test']), 'openstack/b-certs': found(['api.cloud.test']) };
    const different = judge(
      [
        ingress('openstack', 'a', ['api.cloud.test'], 'a-certs'),
        ingress('openstack', 'b', ['api.cloud.test'], 'b-certs'),
      ],
      secrets,
    );
    expect(different.findings.map((f) => [f.ingress, f.kind, f.status])).toEqual([
      ['openstack/a, openstack/b', 'duplicate-host', 'fail'],
    ]);
    expect(different.findings[0]!.problem).toContain('openstack/a-certs, openstack/b-certs');
    const same = judge(
      [
        ingress('openstack', 'a', ['api.cloud.test'], 'a-certs'),
        ingress('openstack', 'b', ['api.cloud.test'], 'a-certs'),
      ],
      secrets,
    );
    expect(same.findings.map((f) => [f.kind, f.status])).toEqual([['duplicate-host', 'warn']]);
  });

  it('reports tls hosts that do not match the rules: a served host without TLS fails, a TLS host nobody serves warns', () => {
    const { findings } = judge(
      [
        ingress('openstack', 'horizon', ['dashboard.cloud.test', 'old.cloud.test'], 'horizon-certs', {
          ruleHosts: ['dashboard.cloud.test', 'horizon.cloud.test'],
        }),
      ],
      { 'openstack/horizon-certs': found(['dashboard.cloud.test', 'old.cloud.test']) },
    );
    expect(findings.map((f) => [f.kind, f.status])).toEqual([
      ['rule-host-without-tls', 'fail'],
      ['tls-host-without-rule', 'warn'],
    ]);
    expect(findings[0]!.problem).toContain('horizon.cloud.test');
    expect(findings[1]!.problem).toContain('old.cloud.test');
  });

  it('escapes control characters of names read from the cluster', () => {
    const { findings } = judge([ingress('openstack', 'evil\u001b[2J', ['x.cloud.test'], 'gone')], {});
    expect(findings[0]!.ingress).toBe('openstack/evil\\x1b[2J');
  });

  it('warns about a namespace whose ingresses cannot be listed, judging the others', () => {
    const { findings, result } = judge(
      [ingress('openstack', 'nova', ['compute.cloud.test'], 'gone')],
      {},
      { unreadable: [{ namespace: 'monitoring', error: 'ingresses.networking.k8s.io is forbidden' }] },
    );
    expect(findings.map((f) => [f.ingress, f.kind, f.status])).toEqual([
      ['monitoring/*', 'namespace-unreadable', 'warn'],
      ['openstack/nova', 'secret-missing', 'fail'],
    ]);
    expect(result.status).toBe('fail');
  });

  it('warns when there is no ingress at all', () => {
    expect(judge([], {}).result).toMatchObject({
      status: 'warn',
      message: 'No ingress in openstack, auth-system, monitoring.',
    });
  });

  it.each<[string, () => Record<string, SecretLookup>, Partial<IngressSnapshot>, string[]]>([
    [
      'a missing secret a Certificate manages is left to kube.certificates',
      () => ({}),
      { managedSecrets: new Set(['openstack/keystone-api-certs']) },
      [],
    ],
    [
      'a managed secret for other names is left to kube.certificates (cert-manager re-issues it)',
      () => ({ 'openstack/keystone-api-certs': found(['other.cloud.test']) }),
      { managedSecrets: new Set(['openstack/keystone-api-certs']) },
      [],
    ],
    ['a missing secret nobody manages', () => ({}), {}, ['secret-missing']],
  ])('%s', (_, secrets, extra, kinds) => {
    expect(
      judge(
        [ingress('openstack', 'keystone', ['identity.cloud.test'], 'keystone-api-certs', { annotations: issued })],
        secrets(),
        extra,
      ).kinds,
    ).toEqual(kinds);
  });

  it("names the inventory's issuer in its advice and its leftover finding", () => {
    const { findings } = judge(
      [
        ingress('monitoring', 'grafana', ['grafana.cloud.test'], 'wildcard', {
          annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt-prod' },
        }),
      ],
      { 'monitoring/wildcard': found(['*.cloud.test']) },
      { issuerType: 'none', platformIssuer: 'letsencrypt-prod', platformIssuerExists: true, suppliedSecret: 'other' },
    );
    expect(findings.map((f) => [f.ingress, f.kind])).toEqual([['monitoring/grafana', 'leftover-issuer']]);
    expect(findings[0]!.fix).toContain('kubectl delete clusterissuer letsencrypt-prod');
  });
});
