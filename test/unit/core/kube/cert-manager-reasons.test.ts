/** cert-manager's reasons, read from its source, each with its cause and fix; the unknown said as unknown. */
import { describe, expect, it } from 'vitest';
import {
  CM_RELEASES,
  explainReason,
  fillIn,
  REASONS,
  requestReasonOf,
} from '../../../../src/core/kube/cert-manager-reasons.js';

describe('the reasons table', () => {
  it('says for every reason where cert-manager writes it, in which releases, its cause, and (unless all is well) its fix', () => {
    for (const row of REASONS) {
      expect([
        row.reason,
        row.sites.length > 0,
        row.releases.every((r) => CM_RELEASES.includes(r)),
        row.cause.length > 10,
      ]).toEqual([row.reason, true, true, true]);
      if (row.verdict !== 'healthy') expect([row.reason, row.fix.length > 5]).toEqual([row.reason, true]);
      for (const m of row.messages ?? [])
        expect([m.code, m.cause.length > 10, m.fix.length > 10]).toEqual([m.code, true, true]);
    }
  });

  it('holds each reason once per place cert-manager writes it', () => {
    const keys = REASONS.flatMap((r) => r.sites.map((site) => `${site} ${r.reason}`));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each<[string, string]>([
    ['AuthFailed', '1.21'],
    ['InvalidSolver', '1.21'],
    ['Venafi issuer started', '1.15'],
    ['Certificate Manager issuer started', '1.21'],
    ['WindowError', '1.21'],
  ])('%s is set by cert-manager %s only', (reason, release) => {
    expect(REASONS.find((r) => r.reason === reason)!.releases).toEqual([release]);
  });
});

describe('explainReason', () => {
  it.each<[string, Parameters<typeof explainReason>, string, string]>([
    [
      '1.15 ErrorSetup for a revoked token',
      [
        'Issuer Ready',
        'ErrorSetup',
        'Failed to setup Venafi issuer: client.VerifyCredentials: tppClient.VerifyAccessToken: failed to verify token',
      ],
      'venafi-token-refused',
      'broken',
    ],
    [
      'ErrorSetup for an unreachable TPP, though the token call failed too',
      [
        'Issuer Ready',
        'ErrorSetup',
        'Failed to setup Venafi issuer: client.VerifyCredentials: tppClient.VerifyAccessToken: Post "https://tpp/vedauth/authorize/verify": dial tcp 10.0.0.9:443: connect: connection refused',
      ],
      'venafi-unreachable',
      'broken',
    ],
    [
      'ErrGetKeyPair for a missing Secret',
      [
        'Issuer Ready',
        'ErrGetKeyPair',
        'Error getting keypair for CA issuer: secret "cert-manager-issuer-ca" not found',
      ],
      'ca-secret-missing',
      'broken',
    ],
    [
      'ErrGetKeyPair for a key that is not PEM',
      ['Issuer Ready', 'ErrGetKeyPair', 'Error getting keypair for CA issuer: error decoding private key PEM block'],
      'ca-secret-unreadable',
      'broken',
    ],
    [
      'ErrInvalidKeyPair, which 1.15 sets only for "not a CA"',
      ['Issuer Ready', 'ErrInvalidKeyPair', 'Error getting keypair for CA issuer: certificate is not a CA'],
      'ErrInvalidKeyPair',
      'broken',
    ],
    [
      'an issuer returning an expired certificate (1.21)',
      [
        'Certificate Issuing',
        'InvalidCertificate',
        'The certificate request has failed to complete and will be retried: Issuer returned an already expired certificate (notAfter: 2030-01-01T00:00:00Z). This usually indicates an expired CA certificate in the issuer.',
      ],
      'issuer-returned-expired',
      'broken',
    ],
    [
      'a renewal',
      [
        'Certificate Issuing',
        'Renewing',
        'Renewing certificate as renewal was scheduled at 2030-01-01 00:00:00 +0000 UTC',
      ],
      'Renewing',
      'transient',
    ],
    ['the selfSigned root', ['Issuer Ready', 'IsReady', ''], 'IsReady', 'healthy'],
  ])('%s', (_, args, code, verdict) => {
    expect(explainReason(...args)).toMatchObject({ known: true, code, verdict });
  });

  it("says a reason it does not know as unknown, with no other reason's fix", () => {
    const why = explainReason('Issuer Ready', 'PolicyViolation', 'blocked');
    expect(why).toMatchObject({ known: false, code: 'unknown', verdict: 'broken', reason: 'PolicyViolation' });
    expect(why.cause).toMatch(/"PolicyViolation", which is not one cert-manager 1\.15 or 1\.21 sets/);
    const fixes = new Set(REASONS.flatMap((r) => [r.fix, ...(r.messages ?? []).map((m) => m.fix)]));
    expect(fixes.has(why.fix)).toBe(false);
    expect(fillIn(why.fix, { issuer: 'ClusterIssuer atmosphere' })).toMatch(
      /ClusterIssuer atmosphere \("kubectl describe" it\)/,
    );
  });
});

describe('requestReasonOf', () => {
  it.each<[string, string | undefined, string]>([
    [
      'Referenced "ClusterIssuer" not found: clusterissuer.cert-manager.io "atmosphere" not found',
      undefined,
      'IssuerNotFound',
    ],
    ['Referenced issuer does not have a Ready status condition', undefined, 'IssuerNotReady'],
    [
      'Referenced secret cert-manager/cert-manager-issuer-ca not found: secret "cert-manager-issuer-ca" not found',
      'ca',
      'SecretMissing',
    ],
    [
      'Referenced secret openstack/nova-api-x9k2 not found: secret "nova-api-x9k2" not found',
      'selfSigned',
      'MissingSecret',
    ],
    [
      "Error signing certificate: error creating x509 certificate: x509: provided PrivateKey doesn't match parent's PublicKey",
      'ca',
      'SigningError',
    ],
    ['Error signing certificate: x', 'selfSigned', 'ErrorSigning'],
    [
      'Failed to wait for order resource "nova-api-1-1234" to become ready: order is in "errored" state: x',
      'acme',
      'OrderFailed',
    ],
    ['Waiting on certificate issuance from order openstack/nova-api-1-1234: "pending"', 'acme', 'OrderPending'],
    ['Failed to request venafi certificate: zone policy', 'venafi', 'RequestError'],
    ['Venafi certificate is requested', 'venafi', 'IssuancePending'],
  ])('%s → %s', (message, mechanism, reason) => {
    expect(requestReasonOf(message, mechanism)).toBe(reason);
  });

  it('says nothing for a message it does not know', () => {
    expect(requestReasonOf('something new', 'acme')).toBeUndefined();
  });
});
