/** Why a Certificate is not Ready: the walk Certificate → CertificateRequest → Order → Challenge, on fixtures. */
import { describe, expect, it } from 'vitest';
import { findRequest, issuanceCause, retryAfter, type CmObject, type IssuanceObjects } from '../../../../../src/core/areas/kube/certificate-status.js';

const meta = (kind: string, name: string, owner?: CmObject, annotations?: Record<string, string>, created = '2025-01-01T00:00:00Z') => ({
  name,
  namespace: 'openstack',
  uid: `${kind}-${name}-uid`,
  creationTimestamp: created,
  annotations,
  ownerReferences: owner ? [{ kind: owner.kind, name: owner.metadata!.name, uid: owner.metadata!.uid }] : undefined,
});

const certificate = (revision?: number): CmObject => ({
  kind: 'Certificate',
  metadata: meta('Certificate', 'nova-api'),
  spec: { secretName: 'nova-api-certs', dnsNames: ['compute.cloud.test'] },
  status: { ...(revision ? { revision } : {}), conditions: [{ type: 'Ready', status: 'False', reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist' }] },
});
const request = (cert: CmObject, revision: number, conditions: CmObject['status'] = {}, name = `nova-api-${revision}`): CmObject => ({
  kind: 'CertificateRequest',
  metadata: meta('CertificateRequest', name, cert, { 'cert-manager.io/certificate-name': 'nova-api', 'cert-manager.io/certificate-revision': String(revision) }),
  status: conditions,
});
const order = (req: CmObject, status: Record<string, unknown>): CmObject => ({ kind: 'Order', metadata: meta('Order', `${req.metadata!.name}-123`, req), status });
const challenge = (ord: CmObject, type: string, status: Record<string, unknown>, dnsName = 'compute.cloud.test'): CmObject => ({
  kind: 'Challenge',
  metadata: meta('Challenge', `${ord.metadata!.name}-456`, ord),
  spec: { type, dnsName, key: 'key-authorization-digest', token: 'challenge-token' },
  status,
});
const pending = { conditions: [{ type: 'Ready', status: 'False', reason: 'Pending', message: 'Waiting on certificate issuance from order openstack/nova-api-1-123: "pending"' }] };

function walk(cert: CmObject, ...objects: CmObject[]) {
  const all: IssuanceObjects = {
    requests: objects.filter((o) => o.kind === 'CertificateRequest'),
    orders: objects.filter((o) => o.kind === 'Order'),
    challenges: objects.filter((o) => o.kind === 'Challenge'),
  };
  return issuanceCause(cert, all);
}

describe('issuanceCause', () => {
  it('reports pending DNS propagation of a presented DNS-01 challenge, naming the challenge and the record', () => {
    const cert = certificate();
    const req = request(cert, 1, pending);
    const ord = order(req, { state: 'pending' });
    const why = 'Waiting for DNS-01 challenge propagation: DNS record for "compute.cloud.test" not yet propagated';
    const cause = walk(cert, req, ord, challenge(ord, 'DNS-01', { presented: true, processing: true, state: 'pending', reason: why }));
    expect(cause).toMatchObject({ kind: 'dns-propagation', object: 'Challenge openstack/nova-api-1-123-456', dnsName: 'compute.cloud.test' });
    expect(cause!.summary).toContain(why);
    expect(cause!.advice).toContain('_acme-challenge.compute.cloud.test');
    expect(JSON.stringify(cause)).not.toMatch(/key-authorization-digest|challenge-token/);
  });

  it("reports a failing HTTP-01 self-check and a DNS provider that refuses to present the record", () => {
    const cert = certificate();
    const req = request(cert, 1, pending);
    const ord = order(req, { state: 'pending' });
    const selfCheck = walk(cert, req, ord, challenge(ord, 'HTTP-01', { presented: true, processing: true, state: 'pending', reason: "Waiting for HTTP-01 challenge propagation: failed to perform self check GET request 'http://compute.cloud.test/.well-known/acme-challenge/x': connection refused" }));
    expect(selfCheck).toMatchObject({ kind: 'self-check' });
    const refused = walk(cert, req, ord, challenge(ord, 'DNS-01', { presented: false, processing: true, state: 'pending', reason: 'Error presenting challenge: 403 Forbidden: AccessDenied' }));
    expect(refused).toMatchObject({ kind: 'dns-permission', step: 'challenge' });
    expect(refused!.advice).toMatch(/credentials/);
  });

  it('reports a rate-limited order with the retry time from its message', () => {
    const cert = certificate();
    const req = request(cert, 1, pending);
    const ord = order(req, {
      state: 'errored',
      reason: 'Failed to create Order: 429 urn:ietf:params:acme:error:rateLimited: too many certificates (5) already issued for this exact set of identifiers in the last 168h0m0s, retry after 2031-01-20 22:00:44 UTC: see https://letsencrypt.org/docs/rate-limits/',
    });
    const cause = walk(cert, req, ord);
    expect(cause).toMatchObject({ kind: 'rate-limited', object: 'Order openstack/nova-api-1-123', retryAfter: '2031-01-20T22:00:44.000Z' });
    expect(cause!.advice).toContain('2031-01-20T22:00:44.000Z');
  });

  it('reports an authorization failure from the invalid challenge, or from the invalid order when no challenge says more', () => {
    const cert = certificate();
    const req = request(cert, 1, { conditions: [{ type: 'Ready', status: 'False', reason: 'Failed', message: 'Failed to wait for order resource "nova-api-1-123" to become ready: order is in "invalid" state' }] });
    const ord = order(req, { state: 'invalid', reason: '' });
    const detail = 'Error accepting authorization: acme: authorization error for compute.cloud.test: 403 urn:ietf:params:acme:error:unauthorized: Incorrect TXT record "abc" found at _acme-challenge.compute.cloud.test';
    const fromChallenge = walk(cert, req, ord, challenge(ord, 'DNS-01', { presented: true, processing: false, state: 'invalid', reason: detail }));
    expect(fromChallenge).toMatchObject({ kind: 'authorization', object: 'Challenge openstack/nova-api-1-123-456', dnsName: 'compute.cloud.test' });
    expect(fromChallenge!.summary).toContain('urn:ietf:params:acme:error:unauthorized');
    const fromOrder = walk(cert, req, order(req, { state: 'invalid', reason: 'Failed to finalize Order: 403 urn:ietf:params:acme:error:unauthorized: Account is not authorized' }));
    expect(fromOrder).toMatchObject({ kind: 'authorization', object: 'Order openstack/nova-api-1-123' });
    expect(fromOrder!.summary).toContain('Account is not authorized');
  });

  it('reports a denied request and an invalid one, before any order', () => {
    const cert = certificate();
    const denied = walk(cert, request(cert, 1, { conditions: [{ type: 'Denied', status: 'True', reason: 'policy.cert-manager.io', message: 'No policy approved this request' }] }));
    expect(denied).toMatchObject({ kind: 'denied', object: 'CertificateRequest openstack/nova-api-1' });
    expect(denied!.summary).toContain('No policy approved this request');
    const invalid = walk(cert, request(cert, 1, { conditions: [{ type: 'InvalidRequest', status: 'True', reason: 'SecretMismatch', message: 'CSR does not match' }] }));
    expect(invalid).toMatchObject({ kind: 'invalid-request' });
  });

  it('follows the revision: the request of revision status.revision + 1, found by owner or by the certificate-name annotation', () => {
    const cert = certificate(2);
    const old = request(cert, 2, { conditions: [{ type: 'Ready', status: 'True', reason: 'Issued' }] }, 'nova-api-2');
    const current = request(cert, 3, pending, 'nova-api-3');
    expect(findRequest(cert, [old, current])?.metadata?.name).toBe('nova-api-3');
    const byAnnotation = { ...current, metadata: { ...current.metadata, ownerReferences: undefined } };
    expect(findRequest(cert, [byAnnotation])?.metadata?.name).toBe('nova-api-3');
    const stranger = { ...current, metadata: { ...current.metadata, ownerReferences: undefined, annotations: { 'cert-manager.io/certificate-revision': '3' } } };
    expect(findRequest(cert, [stranger])).toBeUndefined();
    expect(walk(cert, old)).toBeUndefined();
  });
});

describe('issuanceCause: the step that is stuck', () => {
  const approved = { type: 'Approved', status: 'True', reason: 'cert-manager.io' };
  it.each<[string, () => CmObject[], Record<string, unknown>]>([
    ['a request no approver answered', () => { const c = certificate(); return [c, request(c, 1, { conditions: [{ type: 'Ready', status: 'False', reason: 'Pending' }] })]; },
      { kind: 'not-approved', step: 'approval', reason: 'NotApproved', object: 'CertificateRequest openstack/nova-api-1' }],
    ['an approved request the issuer has not signed', () => { const c = certificate(); return [c, request(c, 1, { conditions: [approved, { type: 'Ready', status: 'False', reason: 'Pending' }] })]; },
      { kind: 'request-pending', step: 'issuer', reason: 'Pending', inProgress: true }],
    ['a failed request naming External Account Binding', () => { const c = certificate(); return [c, request(c, 1, { conditions: [approved, { type: 'Ready', status: 'False', reason: 'Failed', message: 'urn:ietf:params:acme:error:externalAccountRequired' }] })]; },
      { kind: 'eab', step: 'request' }],
    ['an order needing External Account Binding', () => { const c = certificate(); const r = request(c, 1, { conditions: [approved] }); return [c, r, order(r, { state: 'errored', reason: 'externalAccountRequired: the CA requires EAB' })]; },
      { kind: 'eab', step: 'order', object: 'Order openstack/nova-api-1-123' }],
    ['an HTTP-01 self-check answered 404', () => { const c = certificate(); const r = request(c, 1, pending); const o = order(r, { state: 'pending' });
      return [c, r, o, challenge(o, 'HTTP-01', { presented: true, processing: true, state: 'pending', reason: "Waiting for HTTP-01 challenge propagation: wrong status code '404', expected '200'" })]; },
      { kind: 'self-check', step: 'challenge', reason: 'self-check got HTTP 404' }],
    ['a pending DNS-01 propagation (cert-manager at work)', () => { const c = certificate(); const r = request(c, 1, pending); const o = order(r, { state: 'pending' });
      return [c, r, o, challenge(o, 'DNS-01', { presented: true, processing: true, state: 'pending', reason: 'Waiting for DNS-01 challenge propagation: not yet propagated' })]; },
      { kind: 'dns-propagation', step: 'challenge', reason: 'Waiting for DNS-01 challenge propagation', inProgress: true }],
  ])('%s', (_, objects, expected) => {
    const [cert, ...rest] = objects();
    expect(walk(cert!, ...rest)).toMatchObject(expected);
  });

  it('names the ingress class it was given in the HTTP-01 advice', () => {
    const c = certificate();
    const r = request(c, 1, pending);
    const o = order(r, { state: 'pending' });
    const all = { requests: [r], orders: [o], challenges: [challenge(o, 'HTTP-01', { presented: true, processing: true, state: 'pending', reason: 'Waiting for HTTP-01 challenge propagation: failed to perform self check' })] };
    expect(issuanceCause(c, all, 'public-nginx')!.advice).toContain('ingress class public-nginx');
  });
});

describe('retryAfter', () => {
  it('reads the retry times ACME CAs write', () => {
    expect(retryAfter('..., retry after 2031-01-20 22:00:44 UTC: see ...')).toBe('2031-01-20T22:00:44.000Z');
    expect(retryAfter('Error creating new order :: too many failed authorizations recently: Retry after 2031-04-16T09:42:15Z')).toBe('2031-04-16T09:42:15.000Z');
    expect(retryAfter('rateLimited: slow down')).toBeUndefined();
  });
});
