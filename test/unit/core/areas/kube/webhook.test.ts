/** What the API server's refusal of the dry-run CertificateRequest means, in the words kubectl prints it. */
import { describe, expect, it } from 'vitest';
import { webhookFailure } from '../../../../../src/core/areas/kube/webhook.js';

const CALL =
  'Error from server (InternalError): error when creating "STDIN": Internal error occurred: failed calling webhook "webhook.cert-manager.io": failed to call webhook: Post "https://cert-manager-webhook.cert-manager.svc:443/mutate?timeout=10s": ';

describe('webhookFailure', () => {
  it.each<[string, string, string | undefined]>([
    [`${CALL}service "cert-manager-webhook" not found`, 'WebhookServiceMissing', undefined],
    [`${CALL}dial tcp 10.96.38.90:443: connect: connection refused`, 'WebhookNotRunning', undefined],
    [`${CALL}no endpoints available for service "cert-manager-webhook"`, 'WebhookNotRunning', undefined],
    [
      `${CALL}tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      'WebhookCAMissing',
      undefined,
    ],
    [`${CALL}context deadline exceeded`, 'WebhookTimeout', undefined],
    [
      'error: resource mapping not found for name: "" namespace: "cert-manager" from "STDIN": no matches for kind "CertificateRequest" in version "cert-manager.io/v1"',
      'CRDsNotInstalled',
      'needs-failed',
    ],
    [
      'Error from server (Forbidden): error when creating "STDIN": certificaterequests.cert-manager.io is forbidden: User "ops" cannot create resource "certificaterequests" in API group "cert-manager.io" in the namespace "cert-manager"',
      'Forbidden',
      'not-configured',
    ],
    [
      'Error from server (Forbidden): error when creating "STDIN": admission webhook "webhook.cert-manager.io" denied the request: [spec.username: Forbidden: username identity must be that of the requester]',
      'MutationIncorrect',
      undefined,
    ],
    [
      'Error from server (Forbidden): error when creating "STDIN": admission webhook "validate.kyverno.svc-fail" denied the request: blocked',
      'OtherWebhookDenied',
      'warn',
    ],
    ['Error from server: something new', 'Unknown', undefined],
  ])('%s', (stderr, code, status) => {
    const failure = webhookFailure(stderr);
    expect(failure.code).toBe(code);
    // Not a verdict: the probe could not be made (cert-manager missing, a user who may not run it).
    if (status === 'needs-failed' || status === 'not-configured') expect(failure.unavailable).toBe(status);
    else expect(failure.status).toBe(status);
    expect(failure.message).not.toContain('Error from server');
  });
});
