/** A TLS secret decoded and judged as the ingress controller reads it; each problem said once, at its root. */
import { describe, expect, it } from 'vitest';
import { inspectionLines, inspectionOf } from '../../../../../src/core/areas/kube/inspect-secret.js';
import { chainFor } from '../../../../helpers/cert-manager-states.js';
import { DAY, issue } from '../../../../helpers/pki.js';
import type { KubeObject } from '../../../../servers/kube-api.js';

const secret = (
  data: Record<string, string>,
  annotations: Record<string, string> = {},
  type = 'kubernetes.io/tls',
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type,
  metadata: {
    name: 'nova-api-certs',
    namespace: 'openstack',
    annotations: { ...annotations, 'meta.helm.sh/release-name': 'nova' },
  },
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
});
const NOW = new Date();
const codes = (s: KubeObject) => inspectionOf(s, NOW).findings.map((f) => f.code);

describe('inspectionOf', () => {
  it("reads the chain, the names, the key and only cert-manager's annotations", () => {
    const ca = issue({ cn: 'Cloud Test CA', ca: true });
    const leaf = issue({ cn: 'nova-api.cloud.test', dns: ['nova-api.cloud.test'], issuer: ca });
    const i = inspectionOf(
      secret(
        { 'tls.crt': `${leaf.cert}${ca.cert}`, 'tls.key': leaf.key, 'ca.crt': ca.cert },
        { 'cert-manager.io/issuer-name': 'atmosphere', 'cert-manager.io/alt-names': 'nova-api.cloud.test' },
      ),
      NOW,
    );
    expect(i).toMatchObject({
      status: 'ok',
      findings: [],
      key: { state: 'matches', belongsTo: 1 },
      chain: { inOrder: true, endsAt: 'Cloud Test CA', root: 'included' },
    });
    expect(i.certificates.map((c) => [c.position, c.dnsNames, c.isCA, c.issuedByNext])).toEqual([
      [1, ['nova-api.cloud.test'], false, true],
      [2, [], true, undefined],
    ]);
    expect(i.caCertificates).toHaveLength(1);
    expect(Object.keys(i.secret.annotations)).toEqual(['cert-manager.io/issuer-name', 'cert-manager.io/alt-names']);
    expect(inspectionLines(i).join('\n')).not.toMatch(/PRIVATE KEY/);
  });

  it.each<[string, () => KubeObject, string[]]>([
    [
      'a reversed chain: one finding, not also the key',
      () => {
        const c = chainFor('*.cloud.test', true);
        return secret({ 'tls.crt': c.cert, 'tls.key': c.key });
      },
      ['chain-order'],
    ],
    [
      'a key of another certificate',
      () => {
        const a = issue({ cn: 'a', dns: ['a'] });
        return secret({ 'tls.crt': a.cert, 'tls.key': issue({ cn: 'b' }).key });
      },
      ['key-mismatch'],
    ],
    ['no key', () => secret({ 'tls.crt': issue({ cn: 'a', dns: ['a'] }).cert }), ['key-missing']],
    [
      'a key that is not one',
      () => secret({ 'tls.crt': issue({ cn: 'a', dns: ['a'] }).cert, 'tls.key': 'not a key' }),
      ['key-unreadable'],
    ],
    ['no certificate', () => secret({ 'tls.key': issue({ cn: 'a' }).key }), ['no-certificate']],
    ['not PEM', () => secret({ 'tls.crt': 'hello', 'tls.key': issue({ cn: 'a' }).key }), ['unreadable-certificate']],
    [
      'expired',
      () => {
        const a = issue({
          cn: 'a',
          dns: ['a'],
          notBefore: new Date(Date.now() - 90 * DAY),
          notAfter: new Date(Date.now() - DAY),
        });
        return secret({ 'tls.crt': a.cert, 'tls.key': a.key });
      },
      ['expired'],
    ],
    [
      'expiring within 30 days',
      () => {
        const a = issue({ cn: 'a', dns: ['a'], notAfter: new Date(Date.now() + 5 * DAY) });
        return secret({ 'tls.crt': a.cert, 'tls.key': a.key });
      },
      ['expires-soon'],
    ],
    [
      "names other than cert-manager's annotation says",
      () => {
        const a = issue({ cn: 'a', dns: ['a.cloud.test'] });
        return secret({ 'tls.crt': a.cert, 'tls.key': a.key }, { 'cert-manager.io/alt-names': 'b.cloud.test' });
      },
      ['names-differ'],
    ],
    [
      'not of type kubernetes.io/tls',
      () => {
        const a = issue({ cn: 'a', dns: ['a'] });
        return secret({ 'tls.crt': a.cert, 'tls.key': a.key }, {}, 'Opaque');
      },
      ['not-tls-type'],
    ],
  ])('%s', (_, make, expected) => {
    expect(codes(make())).toEqual(expected);
  });
});
