/** kube.issuer judged on the ClusterIssuer as kubectl returns it (no cluster). */
import type { CmObject } from '../../../../../src/core/kube/objects.js';
import { describe, expect, it } from 'vitest';
import { issuerResult, missingIssuerResult } from '../../../../../src/core/areas/kube/issuer.js';

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
    ['not Ready: the commercial CA refuses the credentials', issuer({ venafi: {} }, ready('False', 'AuthFailed')), 'venafi', 'fail', { type: 'venafi' }, /cluster_issuer_venafi_access_token/],
    ['not Ready for an unknown reason', issuer(ACME, ready('False', 'Surprise')), 'acme', 'fail', { reason: 'Surprise' }, /kubectl describe clusterissuer atmosphere/],
    ['not Ready: the ACME CA needs External Account Binding', issuer(ACME, ready('False', 'ErrRegisterACMEAccount', '400 urn:ietf:params:acme:error:externalAccountRequired')), 'acme', 'fail', { reason: 'ErrRegisterACMEAccount' }, /External Account Binding/],
    ['a Ready condition of an older generation', { ...issuer(ACME, { conditions: [{ type: 'Ready', status: 'True', reason: 'ACMEAccountRegistered', observedGeneration: 1 }] }), metadata: { name: 'atmosphere', generation: 2 } }, 'acme', 'warn', { observedGeneration: 1, generation: 2 }, /has not processed the change/],
    ['no Ready condition yet', issuer(ACME, ready(undefined)), 'acme', 'warn', { ready: undefined }, /kubectl get pods -n cert-manager/],
    ['a Ready condition still Unknown', issuer(ACME, ready('Unknown', 'Pending')), 'acme', 'warn', { ready: 'Unknown' }, /has not processed it yet/],
  ])('%s', (_, live, inventoryType, status, details, advice) => {
    const result = issuerResult(live as CmObject, inventoryType);
    expect(result.status).toBe(status);
    expect(result.details).toMatchObject(details);
    if (advice) expect(result.advice).toMatch(advice);
  });
});

describe('issuerResult with the inventory\'s issuer name', () => {
  it('names it in the message, the subject and the stuck step', () => {
    const result = issuerResult({ ...issuer(ACME, ready('False', 'ErrRegisterACMEAccount', 'no')), metadata: { name: 'letsencrypt-prod' } }, 'acme', 'letsencrypt-prod');
    expect(result).toMatchObject({ status: 'fail', subject: { kind: 'ClusterIssuer', name: 'letsencrypt-prod' }, stuck: { step: 'issuer', object: 'ClusterIssuer letsencrypt-prod', reason: 'ErrRegisterACMEAccount' } });
  });

  it.each<[boolean, string, string]>([
    [false, 'issuer', 'ClusterIssuer letsencrypt-prod'],
    [true, 'controller', 'CustomResourceDefinition clusterissuers.cert-manager.io'],
  ])('a missing issuer (CRDs missing: %s) is stuck at %s', (crdsMissing, step, object) => {
    expect(missingIssuerResult('letsencrypt-prod', crdsMissing)).toMatchObject({ status: 'fail', stuck: { step, object, reason: 'NotFound' } });
  });
});
