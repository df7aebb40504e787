/**
 * Why a Certificate is not Ready: the walk Certificate → CertificateRequest → Order → Challenge, on
 * fixtures whose reasons and messages are the texts cert-manager's source writes (1.15 and 1.21).
 */
import { describe, expect, it } from 'vitest';
import {
  findRequest,
  issuanceCause,
  retryAfter,
  STALLED_AFTER_MS,
  type CmObject,
  type IssuanceObjects,
  type WalkContext,
} from '../../../../../src/core/areas/kube/certificate-status.js';

const NOW = new Date('2031-01-10T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const meta = (
  kind: string,
  name: string,
  owner?: CmObject,
  annotations?: Record<string, string>,
  created = ago(5 * 60_000),
) => ({
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
  status: {
    ...(revision ? { revision } : {}),
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        reason: 'DoesNotExist',
        message: 'Issuing certificate as Secret does not exist',
      },
    ],
  },
});
const request = (
  cert: CmObject,
  revision: number,
  conditions: CmObject['status'] = {},
  name = `nova-api-${revision}`,
): CmObject => ({
  kind: 'CertificateRequest',
  metadata: meta('CertificateRequest', name, cert, {
    'cert-manager.io/certificate-name': 'nova-api',
    'cert-manager.io/certificate-revision': String(revision),
  }),
  status: conditions,
});
const order = (req: CmObject, status: Record<string, unknown>, created?: string): CmObject => ({
  kind: 'Order',
  metadata: meta('Order', `${req.metadata!.name}-123`, req, undefined, created),
  status,
});
const challenge = (
  ord: CmObject,
  type: string,
  status: Record<string, unknown>,
  dnsName = 'compute.cloud.test',
  created?: string,
): CmObject => ({
  kind: 'Challenge',
  metadata: meta('Challenge', `${ord.metadata!.name}-456`, ord, undefined, created),
  spec: { type, dnsName, key: 'key-authorization-digest', token: 'challenge-token' },
  status,
});
const event = (about: CmObject, type: string, reason: string, message: string): CmObject => ({
  kind: 'Event',
  metadata: { name: `${about.metadata!.name}.${reason}`, namespace: 'openstack' },
  involvedObject: { kind: about.kind, name: about.metadata!.name, namespace: 'openstack', uid: about.metadata!.uid },
  type,
  reason,
  message,
  lastTimestamp: ago(60_000),
});
const approved = {
  type: 'Approved',
  status: 'True',
  reason: 'cert-manager.io',
  message: 'Certificate request has been approved by cert-manager.io',
};
const pending = {
  conditions: [
    approved,
    {
      type: 'Ready',
      status: 'False',
      reason: 'Pending',
      message: 'Waiting on certificate issuance from order openstack/nova-api-1-123: "pending"',
    },
  ],
};

function walk(cert: CmObject, objects: CmObject[], context: WalkContext = {}) {
  const all: IssuanceObjects = {
    requests: objects.filter((o) => o.kind === 'CertificateRequest'),
    orders: objects.filter((o) => o.kind === 'Order'),
    challenges: objects.filter((o) => o.kind === 'Challenge'),
  };
  return issuanceCause(cert, all, { now: NOW, events: objects.filter((o) => o.kind === 'Event'), ...context });
}

/** A certificate with a pending request, its order and one challenge in `status`. */
function withChallenge(type: string, status: Record<string, unknown>, created?: string) {
  const cert = certificate();
  const req = request(cert, 1, pending);
  const ord = order(req, { state: 'pending' });
  const ch = challenge(ord, type, status, 'compute.cloud.test', created);
  return { cert, req, ord, ch, objects: [req, ord, ch] };
}

describe('a challenge, as cert-manager left it', () => {
  it('DNS-01 propagation pending is cert-manager at work; an hour of it is stuck', () => {
    const reason = 'Waiting for DNS-01 challenge propagation: DNS record for "compute.cloud.test" not yet propagated';
    const fresh = withChallenge('DNS-01', { presented: true, processing: true, state: 'pending', reason });
    const cause = walk(fresh.cert, fresh.objects);
    expect(cause).toMatchObject({
      kind: 'dns-propagation',
      step: 'challenge',
      object: 'Challenge openstack/nova-api-1-123-456',
      dnsName: 'compute.cloud.test',
      inProgress: true,
    });
    expect(cause!.advice).toContain('_acme-challenge.compute.cloud.test');
    expect(JSON.stringify(cause)).not.toMatch(/key-authorization-digest|challenge-token/);
    const old = withChallenge(
      'DNS-01',
      { presented: true, processing: true, state: 'pending', reason },
      ago(STALLED_AFTER_MS + 60_000),
    );
    expect(walk(old.cert, old.objects)).toMatchObject({
      kind: 'dns-propagation',
      inProgress: undefined,
      summary: expect.stringMatching(/for 61 minutes/),
    });
  });

  it.each<[string, string, Record<string, unknown>, Record<string, unknown>, RegExp]>([
    [
      'an HTTP-01 self-check answered 404',
      'HTTP-01',
      {
        presented: true,
        processing: true,
        state: 'pending',
        reason: "Waiting for HTTP-01 challenge propagation: wrong status code '404', expected '200'",
      },
      { kind: 'http-self-check-status', reason: 'self-check got HTTP 404' },
      /ingress class atmosphere/,
    ],
    [
      'an HTTP-01 self-check that cannot connect',
      'HTTP-01',
      {
        presented: true,
        processing: true,
        state: 'pending',
        reason:
          'Waiting for HTTP-01 challenge propagation: failed to perform self check GET request \'http://compute.cloud.test/.well-known/acme-challenge/tok\': Get "http://compute.cloud.test/.well-known/acme-challenge/tok": dial tcp: lookup compute.cloud.test on 10.96.0.10:53: no such host',
      },
      { kind: 'http-self-check-connect' },
      /resolve inside the cluster/,
    ],
    [
      'route53 refusing the record (1.15: the SDK error in the reason)',
      'DNS-01',
      {
        presented: false,
        processing: true,
        state: 'pending',
        reason:
          'failed to change Route 53 record set: operation error Route 53: ChangeResourceRecordSets, https response error StatusCode: 403, RequestID: 1, api error AccessDenied: User: arn:aws:iam::1:user/dns is not authorized to perform: route53:ChangeResourceRecordSets',
      },
      { kind: 'dns-credentials-refused' },
      /credentials/,
    ],
    [
      'a webhook solver whose API group is not served',
      'DNS-01',
      {
        presented: false,
        processing: true,
        state: 'pending',
        reason: 'the server could not find the requested resource (post godaddy.godaddy.cert-manager.atmosphere.dev)',
      },
      { kind: 'webhook-api-not-served' },
      /cert-manager-webhook-godaddy/,
    ],
    [
      'a webhook solver that does not answer',
      'DNS-01',
      {
        presented: false,
        processing: true,
        state: 'pending',
        reason:
          'the server is currently unable to handle the request (post infoblox-wapi.infoblox.cert-manager.atmosphere.dev)',
      },
      { kind: 'webhook-api-unavailable' },
      /pod/,
    ],
    [
      'a solver credentials Secret that is missing',
      'DNS-01',
      {
        presented: false,
        processing: true,
        state: 'pending',
        reason: 'error getting cloudflare secret: secret "cloudflare-api-token" not found',
      },
      { kind: 'solver-secret-missing' },
      /cloudflare-api-token/,
    ],
    [
      'an RFC 2136 server that refuses the update',
      'DNS-01',
      { presented: false, processing: true, state: 'pending', reason: 'DNS update failed. Server replied: REFUSED' },
      { kind: 'rfc2136-refused' },
      /tsig/,
    ],
    [
      'a CAA record that forbids the CA',
      'DNS-01',
      {
        presented: true,
        processing: false,
        state: 'invalid',
        reason:
          'Error accepting authorization: acme: authorization error for compute.cloud.test: 403 urn:ietf:params:acme:error:caa: CAA record for compute.cloud.test prevents issuance',
      },
      { kind: 'acme:caa', step: 'challenge' },
      /dig CAA compute\.cloud\.test/,
    ],
    [
      "a refused authorization with the CA's detail only",
      'HTTP-01',
      {
        presented: true,
        processing: false,
        state: 'invalid',
        reason: 'Invalid response from http://compute.cloud.test/.well-known/acme-challenge/tok: 404',
      },
      { kind: 'acme:unauthorized' },
      /port 80/,
    ],
  ])('%s', (_, type, status, expected, advice) => {
    const { cert, objects } = withChallenge(type, status);
    const cause = walk(cert, objects);
    expect(cause).toMatchObject({ step: 'challenge', dnsName: 'compute.cloud.test', ...expected });
    expect(cause!.inProgress).toBeUndefined();
    expect(cause!.advice).toMatch(advice);
  });

  it('1.21 hides the SDK error in the reason: the PresentError event says it', () => {
    const { cert, ch, objects } = withChallenge('DNS-01', {
      presented: false,
      processing: true,
      state: 'pending',
      reason:
        'failed to change Route 53 record set: <redacted AWS SDK error: http.ResponseError: see events and logs for details>',
    });
    const presentError = event(
      ch,
      'Warning',
      'PresentError',
      'Error presenting challenge: failed to change Route 53 record set: operation error Route 53: ChangeResourceRecordSets, https response error StatusCode: 403, api error AccessDenied: not authorized',
    );
    expect(walk(cert, [...objects, presentError])).toMatchObject({ kind: 'dns-credentials-refused' });
  });

  it('a present error cloudgate does not know is said as it is, not as a DNS credentials problem', () => {
    const { cert, objects } = withChallenge('DNS-01', {
      presented: false,
      processing: true,
      state: 'pending',
      reason: 'a solver said something new',
    });
    const cause = walk(cert, objects);
    expect(cause).toMatchObject({ kind: 'present-error' });
    expect(cause!.summary).toContain('a solver said something new');
    expect(cause!.advice).not.toMatch(/credentials|permission/);
  });

  it('names the ingress class it was given in the HTTP-01 advice', () => {
    const { cert, objects } = withChallenge('HTTP-01', {
      presented: true,
      processing: true,
      state: 'pending',
      reason: "Waiting for HTTP-01 challenge propagation: wrong status code '503', expected '200'",
    });
    expect(walk(cert, objects, { ingressClass: 'public-nginx' })!.advice).toContain('ingress class public-nginx');
  });
});

describe('an order, as cert-manager left it', () => {
  it.each<[string, string, Record<string, unknown>, RegExp]>([
    [
      "a rate limit, with the CA's retry time",
      'Failed to create Order: 429 urn:ietf:params:acme:error:rateLimited: Error creating new order :: too many certificates (5) already issued for this exact set of identifiers in the last 168h0m0s, retry after 2031-01-20 22:00:44 UTC: see https://letsencrypt.org/docs/rate-limits/',
      { kind: 'acme:rateLimited', retryAfter: '2031-01-20T22:00:44.000Z', inProgress: true },
      /Do not delete anything/,
    ],
    [
      'a name the CA will never issue for',
      'Failed to create Order: 400 urn:ietf:params:acme:error:rejectedIdentifier: Error creating new order :: Cannot issue for "nova.cloud.internal": Domain name does not end with a valid public suffix (TLD)',
      { kind: 'acme:rejectedIdentifier' },
      /cluster_issuer_type: ca/,
    ],
    [
      'a CAA refusal at finalization',
      'Failed to finalize Order: 403 urn:ietf:params:acme:error:caa: Error finalizing order :: Rechecking CAA for "compute.cloud.test": CAA record for compute.cloud.test prevents issuance',
      { kind: 'acme:caa' },
      /CAA/,
    ],
    [
      'an ACME problem type no standard defines',
      'Failed to create Order: 400 urn:ietf:params:acme:error:somethingNew: detail',
      { kind: 'acme:somethingNew' },
      /CA's detail/,
    ],
  ])('%s', (_, reason, expected, advice) => {
    const cert = certificate();
    const req = request(cert, 1, pending);
    const cause = walk(cert, [req, order(req, { state: 'errored', reason })]);
    expect(cause).toMatchObject({ step: 'order', object: 'Order openstack/nova-api-1-123', ...expected });
    expect(cause!.advice).toMatch(advice);
  });

  it('an order that never got a challenge says why in its Warning event (reason Solver)', () => {
    const cert = certificate();
    const req = request(cert, 1, pending);
    const ord = order(req, { state: 'pending' }, ago(2 * 3_600_000));
    const solver = event(
      ord,
      'Warning',
      'Solver',
      'Failed to determine a valid solver configuration for the set of domains on the Order: no configured challenge solvers can be used for this challenge',
    );
    const cause = walk(cert, [req, ord, solver]);
    expect(cause).toMatchObject({
      kind: 'Solver',
      step: 'order',
      reason: 'Solver',
      object: 'Order openstack/nova-api-1-123',
    });
    expect(cause!.inProgress).toBeUndefined();
    expect(cause!.advice).toMatch(/wildcard/);
    // Without the event, a young order is cert-manager at work; an old one is stuck without a reason.
    expect(walk(cert, [req, order(req, { state: 'pending' }, ago(60_000))])).toMatchObject({
      kind: 'order-pending',
      inProgress: true,
    });
    expect(walk(cert, [req, ord])).toMatchObject({
      kind: 'order-no-challenge',
      summary: expect.stringMatching(/no Challenge for 120 minutes/),
    });
  });

  it('an authorization refused: the challenge says it, else the order', () => {
    const cert = certificate();
    const req = request(cert, 1, {
      conditions: [
        approved,
        {
          type: 'Ready',
          status: 'False',
          reason: 'Failed',
          message: 'Failed to wait for order resource "nova-api-1-123" to become ready: order is in "invalid" state: ',
        },
      ],
    });
    const ord = order(req, { state: 'invalid', reason: '' });
    const detail =
      'Error accepting authorization: acme: authorization error for compute.cloud.test: 403 urn:ietf:params:acme:error:unauthorized: Incorrect TXT record "abc" found at _acme-challenge.compute.cloud.test';
    expect(
      walk(cert, [
        req,
        ord,
        challenge(ord, 'DNS-01', { presented: true, processing: false, state: 'invalid', reason: detail }),
      ]),
    ).toMatchObject({
      kind: 'acme:unauthorized',
      object: 'Challenge openstack/nova-api-1-123-456',
      dnsName: 'compute.cloud.test',
    });
    expect(
      walk(cert, [
        req,
        order(req, {
          state: 'invalid',
          reason: 'Failed to finalize Order: 403 urn:ietf:params:acme:error:unauthorized: Account is not authorized',
        }),
      ]),
    ).toMatchObject({
      kind: 'acme:unauthorized',
      object: 'Order openstack/nova-api-1-123',
      summary: expect.stringContaining('Account is not authorized'),
    });
  });
});

describe('a request, as cert-manager left it', () => {
  it('denied and invalid requests stop before any order', () => {
    const cert = certificate();
    const denied = walk(cert, [
      request(cert, 1, {
        conditions: [
          {
            type: 'Denied',
            status: 'True',
            reason: 'policy.cert-manager.io',
            message: 'No policy approved this request',
          },
        ],
      }),
    ]);
    expect(denied).toMatchObject({
      kind: 'denied',
      step: 'approval',
      object: 'CertificateRequest openstack/nova-api-1',
    });
    expect(denied!.summary).toContain('No policy approved this request');
    expect(
      walk(cert, [
        request(cert, 1, {
          conditions: [
            { type: 'InvalidRequest', status: 'True', reason: 'ExternalIssuerRefused', message: 'CSR does not match' },
          ],
        }),
      ]),
    ).toMatchObject({ kind: 'invalid-request' });
  });

  it.each<[string, CmObject['status'], WalkContext, Record<string, unknown>]>([
    [
      'no approver answered',
      { conditions: [{ type: 'Ready', status: 'False', reason: 'Pending', message: 'Waiting for approval' }] },
      {},
      { kind: 'not-approved', step: 'approval', reason: 'NotApproved' },
    ],
    [
      'an approved request the issuer has not signed',
      { conditions: [approved, { type: 'Ready', status: 'False', reason: 'Pending' }] },
      {},
      { kind: 'request-pending', step: 'issuer', inProgress: true },
    ],
    [
      'an issuer that is not Ready',
      {
        conditions: [
          approved,
          {
            type: 'Ready',
            status: 'False',
            reason: 'Pending',
            message: 'Referenced issuer does not have a Ready status condition',
          },
        ],
      },
      { issuerRef: 'ClusterIssuer atmosphere' },
      { kind: 'IssuerNotReady', step: 'issuer', root: 'issuer:ClusterIssuer atmosphere' },
    ],
    [
      "a CA whose key is not its certificate's",
      {
        conditions: [
          approved,
          {
            type: 'Ready',
            status: 'False',
            reason: 'Failed',
            message:
              "Error signing certificate: error creating x509 certificate: x509: provided PrivateKey doesn't match parent's PublicKey",
          },
        ],
      },
      { issuerMechanism: 'ca' },
      { kind: 'ca-key-mismatch', step: 'request', reason: 'SigningError' },
    ],
    [
      "the CA issuer's Secret missing",
      {
        conditions: [
          approved,
          {
            type: 'Ready',
            status: 'False',
            reason: 'Pending',
            message:
              'Referenced secret cert-manager/cert-manager-issuer-ca not found: secret "cert-manager-issuer-ca" not found',
          },
        ],
      },
      { issuerMechanism: 'ca', issuerRef: 'ClusterIssuer atmosphere' },
      { kind: 'SecretMissing', step: 'issuer' },
    ],
    [
      "the self-signed issuer's key Secret not there yet",
      {
        conditions: [
          approved,
          {
            type: 'Ready',
            status: 'False',
            reason: 'Pending',
            message: 'Referenced secret openstack/nova-api-abcde not found: secret "nova-api-abcde" not found',
          },
        ],
      },
      { issuerMechanism: 'selfSigned' },
      { kind: 'request-pending', inProgress: true },
    ],
  ])('%s', (_, conditions, context, expected) => {
    const cert = certificate();
    expect(walk(cert, [request(cert, 1, conditions)], context)).toMatchObject(expected);
  });

  it('follows the revision: the request of revision status.revision + 1, found by owner or by the certificate-name annotation', () => {
    const cert = certificate(2);
    const old = request(cert, 2, { conditions: [{ type: 'Ready', status: 'True', reason: 'Issued' }] }, 'nova-api-2');
    const current = request(cert, 3, pending, 'nova-api-3');
    expect(findRequest(cert, [old, current])?.metadata?.name).toBe('nova-api-3');
    const byAnnotation = { ...current, metadata: { ...current.metadata, ownerReferences: undefined } };
    expect(findRequest(cert, [byAnnotation])?.metadata?.name).toBe('nova-api-3');
    const stranger = {
      ...current,
      metadata: {
        ...current.metadata,
        ownerReferences: undefined,
        annotations: { 'cert-manager.io/certificate-revision': '3' },
      },
    };
    expect(findRequest(cert, [stranger])).toBeUndefined();
    expect(walk(cert, [old])).toBeUndefined();
  });
});

describe('retryAfter', () => {
  it('reads the retry times ACME CAs write', () => {
    expect(retryAfter('..., retry after 2031-01-20 22:00:44 UTC: see ...')).toBe('2031-01-20T22:00:44.000Z');
    expect(
      retryAfter(
        'Error creating new order :: too many failed authorizations recently: Retry after 2031-04-16T09:42:15Z',
      ),
    ).toBe('2031-04-16T09:42:15.000Z');
    expect(retryAfter('rateLimited: slow down')).toBeUndefined();
  });
});
