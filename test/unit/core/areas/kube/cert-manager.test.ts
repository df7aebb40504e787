/** kube.issuer and kube.certificates judged on cert-manager objects as kubectl returns them (no cluster). */
import { describe, expect, it } from 'vitest';
import { certificatesResult, issuerResult } from '../../../../../src/core/areas/kube/cert-manager.js';
import type { CmObject } from '../../../../../src/core/areas/kube/certificate-status.js';

const ready = (status: string | undefined, reason?: string, message?: string) => (status === undefined ? {} : { conditions: [{ type: 'Ready', status, reason, message }] });
const issuer = (spec: Record<string, unknown>, status: Record<string, unknown>) => ({ apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'atmosphere' }, spec, status });
const ACME = { acme: { server: 'https://acme.test/directory' } };

describe('issuerResult', () => {
  it.each<[string, unknown, string | undefined, 'ok' | 'warn' | 'fail', Record<string, unknown>, RegExp | undefined]>([
    ['Ready, of the type the inventory says', issuer(ACME, ready('True', 'ACMEAccountRegistered')), 'acme', 'ok', { type: 'acme', ready: 'True', reason: 'ACMEAccountRegistered' }, undefined],
    ['Ready, the inventory saying nothing', issuer({ ca: { secretName: 's' } }, ready('True')), undefined, 'ok', { type: 'ca' }, undefined],
    ['Ready but of another type', issuer({ selfSigned: {} }, ready('True')), 'acme', 'warn', { type: 'self-signed' }, /regenerate/],
    ['not Ready: the account cannot register', issuer(ACME, ready('False', 'ErrRegisterACMEAccount', 'connection refused')), 'acme', 'fail',
      { ready: 'False', reason: 'ErrRegisterACMEAccount', message: 'connection refused' }, /cluster_issuer_acme_email/],
    ['not Ready: the CA secret is unreadable', issuer({ ca: { secretName: 's' } }, ready('False', 'ErrGetKeyPair')), 'ca', 'fail', { reason: 'ErrGetKeyPair' }, /cluster_issuer_ca_certificate/],
    ['not Ready: the key does not match', issuer({ ca: { secretName: 's' } }, ready('False', 'ErrInvalidKeyPair')), 'ca', 'fail', { reason: 'ErrInvalidKeyPair' }, /doctor --only certificate/],
    ['not Ready: the commercial CA refuses the credentials', issuer({ venafi: {} }, ready('False', 'AuthFailed')), 'commercialca', 'fail', { type: 'commercialca' }, /cluster_issuer_commercialca_access_token/],
    ['not Ready for an unknown reason', issuer(ACME, ready('False', 'Surprise')), 'acme', 'fail', { reason: 'Surprise' }, /kubectl describe clusterissuer atmosphere/],
    ['no Ready condition yet', issuer(ACME, ready(undefined)), 'acme', 'warn', { ready: undefined }, /kubectl get pods -n cert-manager/],
    ['a Ready condition still Unknown', issuer(ACME, ready('Unknown', 'Pending')), 'acme', 'warn', { ready: 'Unknown' }, /has not processed it yet/],
  ])('%s', (_, live, inventoryType, status, details, advice) => {
    const result = issuerResult(live, inventoryType);
    expect(result.status).toBe(status);
    expect(result.details).toMatchObject(details);
    if (advice) expect(result.advice).toMatch(advice);
  });
});

type Items = Parameters<typeof certificatesResult>[0];
const certificate = (name: string, status: string | undefined, reason?: string, message?: string): Items[number] => ({
  kind: 'Certificate', metadata: { name, namespace: 'openstack', uid: `${name}-uid` },
  spec: { secretName: `${name}-certs`, issuerRef: { name: 'atmosphere' } }, status: { ...ready(status, reason, message), notAfter: '2031-01-01T00:00:00Z' },
});
/** A first issuance stuck at a refused request (revision 1, owned by the Certificate). */
const deniedRequest = (cert: CmObject): CmObject => ({
  kind: 'CertificateRequest',
  metadata: { name: `${cert.metadata!.name}-1`, namespace: 'openstack', annotations: { 'cert-manager.io/certificate-revision': '1' }, ownerReferences: [{ kind: 'Certificate', name: cert.metadata!.name, uid: cert.metadata!.uid }] },
  status: { conditions: [{ type: 'Denied', status: 'True', reason: 'PolicyDenied', message: 'not allowed' }] },
});

describe('certificatesResult', () => {
  const nova = certificate('nova-api', 'False', 'Failed', 'The certificate request has failed');
  it.each<[string, Items, string | undefined, Parameters<typeof certificatesResult>[2], 'ok' | 'warn' | 'fail', Record<string, unknown>[], RegExp]>([
    ['none, with a supplied wildcard', [], 'none', undefined, 'ok', [], /as expected with a supplied wildcard/],
    ['none, with an issuer', [], 'acme', undefined, 'warn', [], /No Certificate in openstack/],
    ['all Ready', [certificate('nova-api', 'True', 'Ready'), certificate('keystone-api', 'True', 'Ready')], 'acme', undefined, 'ok',
      [{ name: 'nova-api', status: 'ok', secret: 'nova-api-certs', issuer: 'atmosphere', notAfter: '2031-01-01T00:00:00Z' }, { name: 'keystone-api', status: 'ok' }], /All 2 Certificates/],
    ['one not Ready yet (no condition): warn', [certificate('nova-api', 'True'), certificate('glance-api', undefined)], 'acme', { ok: true, objects: { requests: [], orders: [], challenges: [] } }, 'warn',
      [{ name: 'nova-api', status: 'ok' }, { name: 'glance-api', status: 'warn' }], /1 of 2 Certificates .* not Ready: glance-api \(no Ready condition yet\)/],
    ['one failed, with the cause of its request', [nova], 'acme', { ok: true, objects: { requests: [deniedRequest(nova)], orders: [], challenges: [] } }, 'fail',
      [{ name: 'nova-api', status: 'fail', reason: 'Failed', cause: { kind: 'denied', object: 'CertificateRequest openstack/nova-api-1' } }], /nova-api .*: CertificateRequest openstack\/nova-api-1: the request was denied/],
    ['one failed, the requests unreadable', [nova], 'acme', { ok: false, error: 'forbidden' }, 'fail', [{ name: 'nova-api', status: 'fail' }], /1 of 1 Certificates/],
    ['a secret from the previous issuer', [certificate('nova-api', 'False', 'IncorrectIssuer')], 'acme', { ok: true, objects: { requests: [], orders: [], challenges: [] } }, 'fail',
      [{ name: 'nova-api', reason: 'IncorrectIssuer' }], /IncorrectIssuer/],
  ])('%s', (_, items, issuerType, issuance, status, rows, message) => {
    const result = certificatesResult(items, issuerType, issuance);
    expect(result.status).toBe(status);
    expect(result.message).toMatch(message);
    expect((result.details as { certificates?: unknown[] } | undefined)?.certificates ?? []).toMatchObject(rows);
  });

  it('names the advice of each cause, regenerate for a previous issuer, and the error of unreadable requests', () => {
    expect(certificatesResult([nova], 'acme', { ok: true, objects: { requests: [deniedRequest(nova)], orders: [], challenges: [] } }).advice).toMatch(/approver/);
    expect(certificatesResult([certificate('nova-api', 'False', 'IncorrectIssuer')], 'acme', { ok: true, objects: { requests: [], orders: [], challenges: [] } }).advice)
      .toMatch(/^A secret still carries the previous issuer: run "cloudgate regenerate"/);
    expect(certificatesResult([nova], 'acme', { ok: false, error: 'forbidden' }).details).toMatchObject({ issuanceError: 'forbidden' });
  });
});
