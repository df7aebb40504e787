/** kube.certificates judged on objects as kubectl returns them: each state's status, stuck step, object and reason (no cluster). */
import { describe, expect, it } from 'vitest';
import {
  certificatesResult,
  judgeCertificate,
  retryTime,
  type CertificatesSnapshot,
} from '../../../../../src/core/areas/kube/certificates.js';
import { readSecretCertificate } from '../../../../../src/core/areas/kube/secret-certificate.js';
import type { CmObject } from '../../../../../src/core/kube/objects.js';
import {
  certificate,
  certificateRequest,
  clusterIssuer,
  condition,
  HOUR,
  issuedCertificate,
  order,
} from '../../../../helpers/cert-manager-objects.js';

const NOW = new Date();
function snapshot(objects: CmObject[], extra: Partial<CertificatesSnapshot> = {}): CertificatesSnapshot {
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  return {
    certificates: of('Certificate'),
    issuance: { requests: of('CertificateRequest'), orders: of('Order'), challenges: of('Challenge') },
    clusterIssuers: [clusterIssuer('atmosphere'), ...of('ClusterIssuer')],
    issuers: of('Issuer'),
    secrets: new Map(
      of('Secret').map((s) => {
        const r = readSecretCertificate(s);
        return [r.source, r];
      }),
    ),
    events: of('Event'),
    platformIssuer: 'atmosphere',
    ingressClass: 'public-nginx',
    issuerType: 'acme',
    namespaces: ['openstack'],
    now: NOW,
    ...extra,
  };
}
const withStatus = (
  [cert, secret]: CmObject[],
  status: Record<string, unknown>,
  conditions: ReturnType<typeof condition>[] = [],
) => {
  Object.assign(cert!.status!, status);
  cert!.status!.conditions!.push(...conditions);
  return [cert!, secret!];
};
const iso = (ms: number) => new Date(NOW.getTime() + ms).toISOString();
const notReady = (reason = 'DoesNotExist', issuing = true) =>
  certificate('nova-api', {
    status: { revision: undefined },
    conditions: [
      condition('Ready', 'False', reason, '', 1),
      ...(issuing ? [condition('Issuing', 'True', reason, '', 1)] : []),
    ],
  });

describe('judgeCertificate', () => {
  const nova = notReady();
  it.each<[string, CmObject[], Partial<CertificatesSnapshot>, string, Record<string, unknown> | undefined]>([
    ['Ready, current, its secret valid with its key', issuedCertificate('nova-api'), {}, 'ok', undefined],
    [
      'renewal in progress',
      withStatus(issuedCertificate('nova-api'), {}, [condition('Issuing', 'True', 'Renewing', '', 1)]),
      {},
      'ok',
      undefined,
    ],
    [
      'issuer missing',
      [certificate('nova-api', { issuer: 'nope' })],
      {},
      'fail',
      { step: 'issuer', object: 'ClusterIssuer nope', reason: 'NotFound' },
    ],
    [
      'namespaced issuer missing',
      [certificate('nova-api', { issuer: 'local', issuerKind: 'Issuer' })],
      {},
      'fail',
      { step: 'issuer', object: 'Issuer openstack/local', reason: 'NotFound' },
    ],
    [
      'waiting for approval',
      [nova, certificateRequest(nova, 1, [])],
      {},
      'fail',
      { step: 'approval', reason: 'NotApproved' },
    ],
    [
      'approved, waiting for the issuer',
      [nova, certificateRequest(nova, 1, [condition('Approved', 'True', 'cert-manager.io')])],
      {},
      'warn',
      { step: 'issuer', reason: 'Pending' },
    ],
    ['stale Ready', [certificate('nova-api', { generation: 2 })], {}, 'warn', { step: 'controller', reason: 'Stale' }],
    [
      'Ready but the secret is missing',
      [certificate('nova-api')],
      {},
      'fail',
      { step: 'secret', object: 'Secret openstack/nova-api-certs', reason: 'NotFound' },
    ],
    [
      'Ready but the secret expired',
      issuedCertificate('nova-api', { days: -1 }),
      {},
      'fail',
      { step: 'secret', object: 'Secret openstack/nova-api-certs' },
    ],
    [
      'Ready but for other names',
      issuedCertificate('nova-api', { hosts: ['nova-api.cloud.test'] }).map((o) =>
        o.kind === 'Certificate' ? { ...o, spec: { ...(o.spec as object), dnsNames: ['other.cloud.test'] } } : o,
      ),
      {},
      'fail',
      { step: 'secret' },
    ],
    [
      'renewal time passed, nothing issuing',
      withStatus(issuedCertificate('nova-api'), { renewalTime: iso(-HOUR) }),
      {},
      'warn',
      { step: 'controller', reason: 'RenewalDue' },
    ],
    [
      'not Ready, not issuing, controller down',
      [notReady('DoesNotExist', false)],
      { controllerDown: true },
      'fail',
      { step: 'controller', reason: 'DoesNotExist' },
    ],
  ])('%s', (_, objects, extra, status, stuck) => {
    const verdict = judgeCertificate(
      objects.find((o) => o.kind === 'Certificate')!,
      snapshot(objects, extra),
    );
    expect(verdict.status).toBe(status);
    if (stuck) expect(verdict.stuck).toMatchObject(stuck);
    else expect(verdict.stuck).toBeUndefined();
  });

  it('a renewal failing: warn while the current certificate is valid, with when cert-manager retries', () => {
    const objects = withStatus(
      issuedCertificate('nova-api'),
      { failedIssuanceAttempts: 2, lastFailureTime: iso(-HOUR), renewalTime: iso(-2 * HOUR) },
      [
        condition(
          'Issuing',
          'False',
          'Failed',
          'The certificate request has failed to complete and will be retried',
          1,
        ),
      ],
    );
    const verdict = judgeCertificate(objects[0]!, snapshot(objects));
    expect(verdict).toMatchObject({ status: 'warn', retryAt: iso(HOUR), stuck: { step: 'request', reason: 'Failed' } });
  });

  it('re-issuing for a secret of another issuer: says cert-manager is on it, no advice to delete', () => {
    const verdict = judgeCertificate(notReady('IncorrectIssuer'), snapshot([notReady('IncorrectIssuer')]));
    expect(verdict).toMatchObject({ status: 'warn', inProgress: true });
    expect(verdict.summary).toMatch(/cert-manager is issuing it \(its secret was issued by another issuer\)/);
    expect(verdict.advice).not.toMatch(/delete|regenerate/i);
  });

  it("stale state is the controller's finding when it is down, said once", () => {
    const verdict = judgeCertificate(
      certificate('nova-api', { generation: 2 }),
      snapshot([], { controllerDown: true }),
    );
    expect(verdict.advice).toMatch(/kube.cert-manager/);
  });
});

describe('certificatesResult', () => {
  it("one verdict: the first failing certificate's stuck step, every secret read as a certificate fact", () => {
    const result = certificatesResult(
      snapshot([...issuedCertificate('keystone-api'), certificate('glance-api', { issuer: 'nope' })]),
    );
    expect(result).toMatchObject({ status: 'fail', stuck: { step: 'issuer', object: 'ClusterIssuer nope' } });
    expect(result.certificates!.map((c) => c.source)).toEqual(['openstack/keystone-api-certs']);
  });

  it.each<[string, string | undefined, string]>([
    ['none', 'none', 'ok'],
    ['acme', 'acme', 'warn'],
  ])('no Certificate with issuer %s', (_, issuerType, status) => {
    expect(certificatesResult(snapshot([], { issuerType })).status).toBe(status);
  });
});

describe('retryTime', () => {
  it.each<[number | undefined, number | undefined]>([
    [1, 1],
    [2, 2],
    [3, 4],
    [6, 32],
    [9, 32],
    [0, undefined],
    [undefined, undefined],
  ])('after %s failures: %s hours', (attempts, hours) => {
    const last = '2031-01-01T00:00:00.000Z';
    expect(retryTime(last, attempts)).toBe(
      hours === undefined ? undefined : new Date(Date.parse(last) + hours * HOUR).toISOString(),
    );
  });
});

describe('order verdict', () => {
  it('an errored order names the order', () => {
    const req = certificateRequest(notReady(), 1, [
      condition('Approved', 'True', 'cert-manager.io'),
      condition('Ready', 'False', 'Failed', 'x'),
    ]);
    const objects = [notReady(), req, order(req, { state: 'errored', reason: 'something broke' })];
    expect(judgeCertificate(objects[0]!, snapshot(objects)).stuck).toMatchObject({
      step: 'order',
      object: 'Order openstack/nova-api-1-1234',
      reason: 'errored',
    });
  });
});
