/** kube.wildcard-secret judged on each copy of the supplied wildcard (no cluster). */
import { describe, expect, it } from 'vitest';
import { wildcardCopiesResult, type WildcardCopy } from '../../../../../src/core/areas/kube/wildcard.js';
import { readSecretCertificate } from '../../../../../src/core/areas/kube/secret-certificate.js';
import { leafFor, tlsSecret } from '../../../../helpers/cert-manager-objects.js';
import { chain } from '../../../../helpers/pki.js';

const good = leafFor(['*.cloud.test']);
const copy = (namespace: string, pem: { cert: string; key: string } = good): WildcardCopy => ({
  namespace,
  read: readSecretCertificate(tlsSecret('wildcard', namespace, pem)),
});
const judge = (copies: WildcardCopy[]) =>
  wildcardCopiesResult('wildcard', copies, 'cloud.test', 'openstack', new Date());

describe('wildcardCopiesResult', () => {
  it.each<[string, () => WildcardCopy[], 'ok' | 'warn' | 'fail', string | undefined, RegExp]>([
    [
      'every copy good',
      () => [copy('openstack'), copy('auth-system'), copy('monitoring')],
      'ok',
      undefined,
      /openstack, auth-system, monitoring/,
    ],
    [
      'a copy missing',
      () => [copy('openstack'), { namespace: 'monitoring' }],
      'fail',
      'monitoring/wildcard',
      /monitoring\/wildcard: it does not exist/,
    ],
    [
      'a copy of another type',
      () => [copy('openstack'), { namespace: 'monitoring', otherType: 'Opaque' }],
      'fail',
      'monitoring/wildcard',
      /type Opaque/,
    ],
    [
      'a copy expired',
      () => [copy('openstack'), copy('auth-system', leafFor(['*.cloud.test'], -3))],
      'fail',
      'auth-system/wildcard',
      /expired/,
    ],
    [
      'a copy with an empty key',
      () => [copy('openstack'), copy('monitoring', { cert: good.cert, key: '' })],
      'fail',
      'monitoring/wildcard',
      /tls.key is empty/,
    ],
    [
      'a copy whose key belongs to another certificate',
      () => [copy('openstack'), copy('monitoring', { cert: good.cert, key: leafFor(['*.cloud.test']).key })],
      'fail',
      'monitoring/wildcard',
      /does not belong/,
    ],
    [
      'a copy for another domain',
      () => [copy('openstack'), copy('monitoring', leafFor(['*.other.test']))],
      'fail',
      'monitoring/wildcard',
      /does not cover \*\.cloud\.test/,
    ],
    [
      'a copy older than the original',
      () => [copy('openstack'), copy('monitoring', leafFor(['*.cloud.test'], 200))],
      'warn',
      'monitoring/wildcard',
      /another certificate than openstack\/wildcard/,
    ],
    [
      'expiring within 30 days',
      () => [copy('openstack', leafFor(['*.cloud.test'], 10))],
      'warn',
      'openstack/wildcard',
      /expires in (9|10) days/,
    ],
  ])('%s', (_, copies, status, stuckIn, message) => {
    const result = judge(copies());
    expect(result.status).toBe(status);
    expect(result.message).toMatch(message);
    if (stuckIn) expect(result.stuck).toMatchObject({ step: 'secret', object: `Secret ${stuckIn}` });
  });

  it('reports the certificate of every copy read, for the exporter, never the key', () => {
    const result = judge([copy('openstack'), copy('monitoring')]);
    expect(result.certificates!.map((c) => c.source)).toEqual(['openstack/wildcard', 'monitoring/wildcard']);
    expect(JSON.stringify(result)).not.toContain(good.key.split('\n')[1]!);
  });

  it('checks the chain of tls.crt as served: intermediate before the leaf is a failure naming the copy', () => {
    const c = chain('p256', { dns: ['*.cloud.test'], cn: '*.cloud.test' });
    const inOrder = { cert: c.leaf.cert + c.intermediate.cert + c.root.cert, key: c.leaf.key };
    const reversed = { cert: c.intermediate.cert + c.leaf.cert + c.root.cert, key: c.leaf.key };
    expect(judge([copy('openstack', inOrder)]).message).not.toMatch(/not in order/);
    const result = judge([copy('openstack', inOrder), copy('monitoring', reversed)]);
    expect(result.status).toBe('fail');
    expect(result.stuck).toMatchObject({ step: 'secret', object: 'Secret monitoring/wildcard' });
    expect(result.message).toMatch(/monitoring\/wildcard: its tls\.crt is not in order/);
  });
});
