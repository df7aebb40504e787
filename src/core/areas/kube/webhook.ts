/**
 * `kube.webhook`: does the API server reach cert-manager's webhook, as `cmctl check api` asks it? Two
 * server-side dry-run creates of a CertificateRequest in cert-manager's namespace (nothing is stored): a
 * valid one, which cert-manager's mutating webhook must fill with the requester's identity, and one with
 * a request that is not a CSR, which its validating webhook must refuse. Without a working webhook the
 * API server refuses every cert-manager object, so cert-manager can create no request, order or challenge.
 */
import type { RunResult } from '../../doctor/types.js';
import type { WebhookFacts } from './facts.js';
import { escapeLine } from '../../escape.js';
import { firstLine, kubectl, type KubectlOptions } from '../../kube/kubectl.js';
import { CERT_MANAGER_NAMESPACE } from '../../kube/platform.js';
import { memberOf, textOf } from '../../records.js';
import { WEBHOOK } from './messages/cluster.js';
import { CRDS_MISSING } from './messages.js';

/** A CSR for a name nobody uses, of a throwaway key (a CSR holds only the public key). */
const PROBE_CSR = `-----BEGIN CERTIFICATE REQUEST-----
MIIBIzCByQIBADAqMSgwJgYDVQQDDB9jbG91ZGdhdGUtd2ViaG9vay1wcm9iZS5l
eGFtcGxlMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEXesZGyw203MReFCoCJtT
+PL+zdtj4zLsBYB5A1OKeVZZmwhVb5Ec5cuzP0a+JOdEwNWyv+o+O4T/e4un8zF+
2qA9MDsGCSqGSIb3DQEJDjEuMCwwKgYDVR0RBCMwIYIfY2xvdWRnYXRlLXdlYmhv
b2stcHJvYmUuZXhhbXBsZTAKBggqhkjOPQQDAgNJADBGAiEAyiKAeKpq6HNlTcmH
aCHIAFzVV/M9r5XDCi11PouVgpACIQCTt8gtvR9xn3ykeJYxQgYp30xsfF3nFxoX
tgOTI8+ojQ==
-----END CERTIFICATE REQUEST-----
`;

const probe = (kind: 'valid' | 'invalid') =>
  JSON.stringify({
    apiVersion: 'cert-manager.io/v1',
    kind: 'CertificateRequest',
    metadata: { generateName: `cloudgate-webhook-probe-${kind}-`, namespace: CERT_MANAGER_NAMESPACE },
    spec: {
      issuerRef: { name: 'cloudgate-webhook-probe' },
      request: Buffer.from(kind === 'valid' ? PROBE_CSR : 'not-a-csr').toString('base64'),
    },
  });

const DENIED_BY_CERT_MANAGER = /admission webhook "webhook\.cert-manager\.io" denied the request/;

interface Failure {
  code: string;
  message: string;
  advice: string;
  status?: 'fail' | 'warn';
  /** The probe cannot be made: cert-manager is missing (`needs-failed`), or this user may not run it (`not-configured`). */
  unavailable?: 'needs-failed' | 'not-configured';
}

/** What the API server's refusal means (cert-manager's own reading of these errors, in cloudgate's words). */
export function webhookFailure(stderr: string): Failure {
  // kubectl's own prefix says nothing the operator needs.
  const said = escapeLine(
    firstLine(stderr).replace(/^Error from server(?: \(\w+\))?: (?:error when creating "STDIN": )?/, ''),
  );
  if (
    /doesn't have a resource type "certificaterequests|no matches for kind "CertificateRequest"|could not find the requested resource|failed to find API group "cert-manager\.io"/.test(
      stderr,
    )
  ) {
    return {
      code: 'CRDsNotInstalled',
      unavailable: 'needs-failed',
      message: CRDS_MISSING.message,
      advice: CRDS_MISSING.text,
    };
  }
  if (/service "[^"]*" not found/.test(stderr)) {
    return { code: 'WebhookServiceMissing', message: WEBHOOK.serviceMissing(said), advice: WEBHOOK.recreateService };
  }
  if (/connect: connection refused|no endpoints available for service|dial tcp/.test(stderr)) {
    return { code: 'WebhookNotRunning', message: WEBHOOK.notRunning(said), advice: WEBHOOK.startPods };
  }
  if (/x509: certificate signed by unknown authority|certificate is not valid|x509:/.test(stderr)) {
    return { code: 'WebhookCAMissing', message: WEBHOOK.caNotInjected(said), advice: WEBHOOK.checkCainjector };
  }
  if (/context deadline exceeded|Client\.Timeout exceeded|timeout/i.test(stderr)) {
    return { code: 'WebhookTimeout', message: WEBHOOK.timesOut(said), advice: WEBHOOK.letThrough };
  }
  if (/is forbidden: User "[^"]*" cannot create resource "certificaterequests"/.test(stderr)) {
    // Least privilege (the exporter's service account) may well leave this out: nothing to probe, nothing wrong.
    return {
      code: 'Forbidden',
      unavailable: 'not-configured',
      message: WEBHOOK.mayNotCreate(said),
      advice: WEBHOOK.useContextThatMay,
    };
  }
  if (DENIED_BY_CERT_MANAGER.test(stderr)) {
    return { code: 'MutationIncorrect', message: WEBHOOK.refusedValid(said), advice: WEBHOOK.mutatingAltered };
  }
  const other = /admission webhook "([^"]*)" denied the request/.exec(stderr)?.[1];
  if (other) {
    return {
      code: 'OtherWebhookDenied',
      status: 'warn',
      message: WEBHOOK.otherWebhook(escapeLine(other), said),
      advice: WEBHOOK.letCertManagerCreate,
    };
  }
  return { code: 'Unknown', message: WEBHOOK.refused(said), advice: WEBHOOK.listWebhooks };
}

function dryRun(kind: 'valid' | 'invalid', kube: KubectlOptions) {
  // --validate=false: kubectl's own schema check would read the OpenAPI document first; the API server checks anyway.
  return kubectl(['create', '--dry-run=server', '--validate=false', '-o', 'json', '-f', '-'], {
    ...kube,
    input: probe(kind),
  });
}

export async function webhookProbe(kube: KubectlOptions): Promise<RunResult<WebhookFacts>> {
  const facts: WebhookFacts = { namespace: CERT_MANAGER_NAMESPACE, dryRun: true };
  const fail = (f: Failure, step: string): RunResult<WebhookFacts> => {
    if (f.unavailable) return { unavailable: f.unavailable, message: f.message, text: f.advice };
    return {
      status: f.status ?? 'fail',
      message: f.message,
      advice: f.advice,
      facts: { ...facts, step, cause: f.code },
      ...(f.status
        ? {}
        : {
            stuck: {
              step: 'controller' as const,
              object: `Deployment ${CERT_MANAGER_NAMESPACE}/cert-manager-webhook`,
              reason: f.code,
            },
          }),
    };
  };
  const valid = await dryRun('valid', kube);
  if (valid.exitCode !== 0) return fail(webhookFailure(valid.stderr), 'valid request');
  let mutated: boolean;
  try {
    const spec = memberOf(JSON.parse(valid.stdout), 'spec');
    mutated = Boolean(textOf(memberOf(spec, 'username')) || textOf(memberOf(spec, 'uid')));
  } catch {
    return {
      status: 'fail',
      message: WEBHOOK.notJson(escapeLine(firstLine(valid.stdout)).slice(0, 200)),
      advice: WEBHOOK.checkKubectl,
      facts,
    };
  }
  if (!mutated) {
    return fail(
      { code: 'MutationWebhookMissing', message: WEBHOOK.mutatingDidNotRun, advice: WEBHOOK.mutatingMissing },
      'valid request',
    );
  }
  const invalid = await dryRun('invalid', kube);
  if (invalid.exitCode === 0) {
    return fail(
      { code: 'ValidatingWebhookMissing', message: WEBHOOK.validatingDidNotRun, advice: WEBHOOK.validatingMissing },
      'invalid request',
    );
  }
  if (!DENIED_BY_CERT_MANAGER.test(invalid.stderr)) return fail(webhookFailure(invalid.stderr), 'invalid request');
  return { status: 'ok', message: WEBHOOK.answers, facts };
}
