/**
 * kube.issuer and kube.issuers judged on issuers as kubectl returns them (no cluster), with the Ready
 * reasons and messages cert-manager's source writes (1.15 and 1.21).
 */
import type { CmObject } from '../../../../../src/core/kube/objects.js';
import { describe, expect, it } from 'vitest';
import {
  issuerResult,
  issuersResult,
  judgeIssuer,
  missingIssuerResult,
} from '../../../../../src/core/areas/kube/issuer.js';
import { readLiveIssuer } from '../../../../../src/core/kube/live-issuer.js';

const ready = (status: string | undefined, reason?: string, message?: string) =>
  status === undefined ? {} : { conditions: [{ type: 'Ready', status, reason, message }] };
const issuer = (spec: Record<string, unknown>, status: Record<string, unknown>, name = 'atmosphere') => ({
  apiVersion: 'cert-manager.io/v1',
  kind: 'ClusterIssuer',
  metadata: { name },
  spec,
  status,
});
const ACME = {
  acme: { server: 'https://acme.test/directory', solvers: [{ http01: { ingress: { class: 'atmosphere' } } }] },
};
const SELF_SIGNED = { ca: { secretName: 'cert-manager-selfsigned-ca' } };
const VENAFI = {
  venafi: {
    zone: 'Certificates\\atmosphere',
    tpp: { url: 'https://tpp.cloud.test/vedsdk', credentialsRef: { name: 'cert-manager-venafi-credentials' } },
  },
};
const selfSignedCa: CmObject = {
  kind: 'Certificate',
  metadata: { name: 'self-signed-ca', namespace: 'cert-manager' },
  spec: {
    isCA: true,
    commonName: 'selfsigned-ca',
    secretName: 'cert-manager-selfsigned-ca',
    issuerRef: { kind: 'ClusterIssuer', name: 'self-signed' },
  },
};

describe("issuerResult: the platform's ClusterIssuer", () => {
  it.each<[string, unknown, string | undefined, 'ok' | 'warn' | 'fail', Record<string, unknown>, RegExp | undefined]>([
    [
      'ACME, Ready, of the type the inventory says',
      issuer(ACME, ready('True', 'ACMEAccountRegistered', 'The ACME account was registered with the ACME server')),
      'acme',
      'ok',
      { type: 'acme', ready: 'True', reason: 'ACMEAccountRegistered' },
      undefined,
    ],
    [
      'a CA, Ready, the inventory saying nothing',
      issuer({ ca: { secretName: 'cert-manager-issuer-ca' } }, ready('True', 'KeyPairVerified', 'Signing CA verified')),
      undefined,
      'ok',
      { type: 'ca' },
      undefined,
    ],
    [
      'the platform\'s self-signed type (a CA issuer over *-selfsigned-ca) is self-signed, not "of type ca"',
      issuer(SELF_SIGNED, ready('True', 'KeyPairVerified', 'Signing CA verified')),
      'self-signed',
      'ok',
      { type: 'self-signed' },
      undefined,
    ],
    [
      'venafi, Ready as 1.15 says it',
      issuer(VENAFI, ready('True', 'Venafi issuer started', 'Venafi issuer started')),
      'venafi',
      'ok',
      { type: 'venafi' },
      undefined,
    ],
    [
      'venafi, Ready as 1.21 says it',
      issuer(VENAFI, ready('True', 'Certificate Manager issuer started', 'Certificate Manager issuer started')),
      'venafi',
      'ok',
      { type: 'venafi' },
      undefined,
    ],
    [
      'Ready but of another type',
      issuer({ selfSigned: {} }, ready('True', 'IsReady')),
      'acme',
      'warn',
      { type: 'selfSigned' },
      /regenerate/,
    ],
    [
      'a CA issuer where the inventory says self-signed',
      issuer({ ca: { secretName: 'cert-manager-issuer-ca' } }, ready('True', 'KeyPairVerified')),
      'self-signed',
      'warn',
      { type: 'ca' },
      /regenerate/,
    ],
    [
      'the ACME account cannot register',
      issuer(
        ACME,
        ready(
          'False',
          'ErrRegisterACMEAccount',
          'Failed to register ACME account: Get "https://acme.test/directory": dial tcp 10.0.0.1:443: connect: connection refused',
        ),
      ),
      'acme',
      'fail',
      { reason: 'ErrRegisterACMEAccount', cause: 'ErrRegisterACMEAccount' },
      /cluster_issuer_acme_server/,
    ],
    [
      'the ACME CA needs External Account Binding',
      issuer(
        ACME,
        ready(
          'False',
          'ErrRegisterACMEAccount',
          'Failed to register ACME account: 400 urn:ietf:params:acme:error:externalAccountRequired: External account binding is required',
        ),
      ),
      'acme',
      'fail',
      { cause: 'acme:externalAccountRequired' },
      /External Account Binding/,
    ],
    [
      'the ACME CA refuses the email',
      issuer(
        ACME,
        ready(
          'False',
          'ErrRegisterACMEAccount',
          'Failed to register ACME account: 400 urn:ietf:params:acme:error:invalidContact: Error creating new account :: invalid contact domain. Contact emails @example.com are forbidden',
        ),
      ),
      'acme',
      'fail',
      { cause: 'acme:invalidContact' },
      /cluster_issuer_acme_email/,
    ],
    [
      'the CA Secret is missing',
      issuer(
        { ca: { secretName: 'cert-manager-issuer-ca' } },
        ready(
          'False',
          'ErrGetKeyPair',
          'Error getting keypair for CA issuer: secret "cert-manager-issuer-ca" not found',
        ),
      ),
      'ca',
      'fail',
      { cause: 'ca-secret-missing' },
      /cluster_issuer_ca_certificate/,
    ],
    [
      'the CA Secret lacks tls.key',
      issuer(
        { ca: { secretName: 'cert-manager-issuer-ca' } },
        ready(
          'False',
          'ErrGetKeyPair',
          'Error getting keypair for CA issuer: no data for "tls.key" in secret \'cert-manager/cert-manager-issuer-ca\'',
        ),
      ),
      'ca',
      'fail',
      { cause: 'ca-secret-no-data' },
      /tls\.key/,
    ],
    [
      '"not a CA" is said as such (1.15 sets ErrInvalidKeyPair only for it)',
      issuer(
        { ca: { secretName: 'cert-manager-issuer-ca' } },
        ready('False', 'ErrInvalidKeyPair', 'Error getting keypair for CA issuer: certificate is not a CA'),
      ),
      'ca',
      'fail',
      { cause: 'ErrInvalidKeyPair' },
      /CA certificate/,
    ],
    [
      '1.15: a revoked Venafi token is ErrorSetup, told apart by its message',
      issuer(
        VENAFI,
        ready(
          'False',
          'ErrorSetup',
          'Failed to setup Venafi issuer: client.VerifyCredentials: tppClient.VerifyAccessToken: failed to verify token: 401 Unauthorized',
        ),
      ),
      'venafi',
      'fail',
      { cause: 'venafi-token-refused' },
      /cluster_issuer_venafi_access_token/,
    ],
    [
      '1.15: a wrong Venafi password',
      issuer(
        VENAFI,
        ready(
          'False',
          'ErrorSetup',
          'Failed to setup Venafi issuer: client.VerifyCredentials: tppClient.Authenticate: username or password is incorrect',
        ),
      ),
      'venafi',
      'fail',
      { cause: 'venafi-password-refused' },
      /cluster_issuer_venafi_password/,
    ],
    [
      '1.15: no Venafi credentials Secret',
      issuer(
        VENAFI,
        ready(
          'False',
          'ErrorSetup',
          'Failed to setup Venafi issuer: error building client: secret "cert-manager-venafi-credentials" not found',
        ),
      ),
      'venafi',
      'fail',
      { cause: 'venafi-secret-missing' },
      /cert-manager-venafi-credentials/,
    ],
    [
      '1.15: TPP unreachable',
      issuer(
        VENAFI,
        ready(
          'False',
          'ErrorSetup',
          'Failed to setup Venafi issuer: error pinging Venafi API: Get "https://tpp.cloud.test/vedsdk/": x509: certificate signed by unknown authority',
        ),
      ),
      'venafi',
      'fail',
      { cause: 'venafi-unreachable' },
      /tpp_ca_bundle/,
    ],
    [
      '1.21: a refused Venafi token is AuthFailed',
      issuer(
        VENAFI,
        ready('False', 'AuthFailed', 'OAuth token request failed: tppClient.VerifyAccessToken: failed to verify token'),
      ),
      'venafi',
      'fail',
      { cause: 'AuthFailed' },
      /cluster_issuer_venafi_access_token/,
    ],
    [
      '1.21: a DNS-01 solver Secret missing',
      issuer(
        ACME,
        ready(
          'False',
          'InvalidSolver',
          'failed to get secret "cert-manager-issuer-route53-credentials": secrets "cert-manager-issuer-route53-credentials" not found',
        ),
      ),
      'acme',
      'fail',
      { cause: 'InvalidSolver' },
      /cert-manager-issuer-route53-credentials/,
    ],
    [
      'a reason cert-manager does not set is said as unknown',
      issuer(ACME, ready('False', 'Surprise', 'something new')),
      'acme',
      'fail',
      { reason: 'Surprise', cause: 'unknown' },
      /Read the message/,
    ],
    [
      'a Ready condition of an older generation',
      {
        ...issuer(ACME, {
          conditions: [{ type: 'Ready', status: 'True', reason: 'ACMEAccountRegistered', observedGeneration: 1 }],
        }),
        metadata: { name: 'atmosphere', generation: 2 },
      },
      'acme',
      'warn',
      { observedGeneration: 1, generation: 2 },
      /has not processed the change/,
    ],
    [
      'no Ready condition yet',
      issuer(ACME, ready(undefined)),
      'acme',
      'warn',
      { ready: undefined },
      /kubectl get pods -n cert-manager/,
    ],
    [
      'a Ready condition still Unknown',
      issuer(ACME, ready('Unknown', 'Pending')),
      'acme',
      'warn',
      { ready: 'Unknown' },
      /kube\.cert-manager/,
    ],
  ])('%s', (_, live, inventoryType, status, details, advice) => {
    const result = issuerResult(live as CmObject, inventoryType);
    expect(result.status).toBe(status);
    expect(result.facts).toMatchObject(details);
    if (advice) expect(result.advice).toMatch(advice);
    else expect(result.advice).toBeUndefined();
  });

  it('"not a CA" gets no advice about a key that does not match, an unknown reason no other reason\'s advice', () => {
    const notCa = issuerResult(
      issuer(
        { ca: { secretName: 's' } },
        ready('False', 'ErrInvalidKeyPair', 'Error getting keypair for CA issuer: certificate is not a CA'),
      ) as CmObject,
      'ca',
    );
    expect(notCa.advice).not.toMatch(/does not match|belong/);
    const unknown = issuerResult(issuer(ACME, ready('False', 'Surprise', 'something new')) as CmObject, 'acme');
    expect(unknown.message).toMatch(/not one cert-manager 1\.15 or 1\.21 sets/);
    expect(unknown.advice).not.toMatch(/cluster_issuer_acme_email|Secret/);
  });

  it('a self-signed issuer with a renamed CA Secret is known by the Certificate that makes it', () => {
    const renamed = { ...selfSignedCa, spec: { ...selfSignedCa.spec, secretName: 'my-root' } };
    expect(
      issuerResult(
        issuer({ ca: { secretName: 'my-root' } }, ready('True', 'KeyPairVerified')) as CmObject,
        'self-signed',
        'atmosphere',
        { selfSignedCaSecrets: ['my-root'] },
        [renamed],
      ).status,
    ).toBe('ok');
  });

  it('names the Certificate that should have made a missing CA Secret', () => {
    const result = issuerResult(
      issuer(
        SELF_SIGNED,
        ready(
          'False',
          'ErrGetKeyPair',
          'Error getting keypair for CA issuer: secret "cert-manager-selfsigned-ca" not found',
        ),
      ) as CmObject,
      'self-signed',
      'atmosphere',
      {},
      [selfSignedCa],
    );
    expect(result.advice).toContain('cloudgate status certificate cert-manager/self-signed-ca');
  });

  it("names the inventory's issuer in the message, the subject and the stuck step", () => {
    const result = issuerResult(
      { ...issuer(ACME, ready('False', 'ErrRegisterACMEAccount', 'no')), metadata: { name: 'letsencrypt-prod' } },
      'acme',
      'letsencrypt-prod',
    );
    expect(result).toMatchObject({
      status: 'fail',
      subject: { kind: 'ClusterIssuer', name: 'letsencrypt-prod' },
      stuck: { step: 'issuer', object: 'ClusterIssuer letsencrypt-prod', reason: 'ErrRegisterACMEAccount' },
    });
  });

  it.each<[boolean, string, string]>([
    [false, 'issuer', 'ClusterIssuer letsencrypt-prod'],
    [true, 'controller', 'CustomResourceDefinition clusterissuers.cert-manager.io'],
  ])('a missing issuer (CRDs missing: %s) is stuck at %s', (crdsMissing, step, object) => {
    expect(missingIssuerResult('letsencrypt-prod', crdsMissing)).toMatchObject({
      status: 'fail',
      stuck: { step, object, reason: 'NotFound' },
    });
  });
});

describe('issuersResult: every other issuer', () => {
  const octavia = (status: Record<string, unknown>) => ({
    kind: 'Issuer',
    metadata: { name: 'octavia-client', namespace: 'openstack' },
    spec: { ca: { secretName: 'octavia-client-ca' } },
    status,
  });
  const octaviaCa: CmObject = {
    kind: 'Certificate',
    metadata: { name: 'octavia-client-ca', namespace: 'openstack' },
    spec: { isCA: true, secretName: 'octavia-client-ca', issuerRef: { kind: 'ClusterIssuer', name: 'self-signed' } },
  };

  it('judges a namespaced CA issuer like the ClusterIssuer, naming the Certificate of its CA', () => {
    const broken = judgeIssuer(
      readLiveIssuer(
        octavia(
          ready('False', 'ErrGetKeyPair', 'Error getting keypair for CA issuer: secret "octavia-client-ca" not found'),
        ),
      ),
      [octaviaCa],
    );
    expect(broken).toMatchObject({
      status: 'fail',
      code: 'ca-secret-missing',
      stuck: { step: 'issuer', object: 'Issuer openstack/octavia-client', reason: 'ErrGetKeyPair' },
    });
    expect(broken.advice).toContain('cloudgate status certificate openstack/octavia-client-ca');
    const result = issuersResult([broken], false);
    expect(result).toMatchObject({ status: 'fail', stuck: { object: 'Issuer openstack/octavia-client' } });
    expect(result.message).toMatch(/Issuer openstack\/octavia-client: it is not Ready/);
  });

  it('all Ready is ok, naming each; ClusterIssuer self-signed missing with nothing using it is a warning', () => {
    const good = judgeIssuer(readLiveIssuer(octavia(ready('True', 'KeyPairVerified', 'Signing CA verified'))));
    expect(issuersResult([good], false)).toMatchObject({
      status: 'ok',
      message: expect.stringMatching(/Issuer openstack\/octavia-client \(ca\)/),
    });
    expect(issuersResult([good], true)).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/ClusterIssuer self-signed does not exist/),
    });
  });
});
