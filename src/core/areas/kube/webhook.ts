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

const probe = (kind: 'valid' | 'invalid') => JSON.stringify({
  apiVersion: 'cert-manager.io/v1', kind: 'CertificateRequest',
  metadata: { generateName: `cloudgate-webhook-probe-${kind}-`, namespace: CERT_MANAGER_NAMESPACE },
  spec: { issuerRef: { name: 'cloudgate-webhook-probe' }, request: Buffer.from(kind === 'valid' ? PROBE_CSR : 'not-a-csr').toString('base64') },
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
  const said = escapeLine(firstLine(stderr).replace(/^Error from server(?: \(\w+\))?: (?:error when creating "STDIN": )?/, ''));
  if (/doesn't have a resource type "certificaterequests|no matches for kind "CertificateRequest"|could not find the requested resource|failed to find API group "cert-manager\.io"/.test(stderr)) {
    return { code: 'CRDsNotInstalled', unavailable: 'needs-failed', message: 'cert-manager\'s CRDs are not installed (kube.issuer says so).', advice: 'Install cert-manager with its CRDs (the platform does it first).' };
  }
  if (/service "[^"]*" not found/.test(stderr)) {
    return { code: 'WebhookServiceMissing', message: `The API server cannot call cert-manager's webhook: its Service does not exist (${said}).`, advice: 'Redeploy cert-manager (the platform installs it with its Helm chart): the chart creates the Service cert-manager-webhook.' };
  }
  if (/connect: connection refused|no endpoints available for service|dial tcp/.test(stderr)) {
    return { code: 'WebhookNotRunning', message: `The API server cannot reach cert-manager's webhook: nothing answers behind its Service (${said}).`, advice: 'The webhook\'s pods do not run or are not ready: "kubectl get deploy,pods -n cert-manager" (kube.cert-manager names the component).' };
  }
  if (/x509: certificate signed by unknown authority|certificate is not valid|x509:/.test(stderr)) {
    return { code: 'WebhookCAMissing', message: `The API server does not trust cert-manager's webhook certificate: the CA bundle is not injected yet (${said}).`, advice: 'The cainjector puts the webhook\'s CA into its webhook configurations: check that cert-manager-cainjector runs (kube.cert-manager), then restart it if the bundle stays empty.' };
  }
  if (/context deadline exceeded|Client\.Timeout exceeded|timeout/i.test(stderr)) {
    return { code: 'WebhookTimeout', message: `The API server's call to cert-manager's webhook times out (${said}).`, advice: 'Something between the API server and the webhook pod drops the connection (a network policy, a firewall to port 10250 of the pod network, a proxy): the API server must reach the webhook\'s pods.' };
  }
  if (/is forbidden: User "[^"]*" cannot create resource "certificaterequests"/.test(stderr)) {
    // Least privilege (the exporter's service account) may well leave this out: nothing to probe, nothing wrong.
    return { code: 'Forbidden', unavailable: 'not-configured', message: `The kubectl user may not create CertificateRequests in ${CERT_MANAGER_NAMESPACE}, even as a dry run, so the webhook cannot be probed (${said}).`, advice: `Run the doctor with a context that may create certificaterequests.cert-manager.io in ${CERT_MANAGER_NAMESPACE} (kubectl auth can-i create certificaterequests -n ${CERT_MANAGER_NAMESPACE}).` };
  }
  if (DENIED_BY_CERT_MANAGER.test(stderr)) {
    return { code: 'MutationIncorrect', message: `cert-manager's webhook refused a valid request (${said}): its mutating part did not fill in the requester.`, advice: 'The MutatingWebhookConfiguration cert-manager-webhook is missing or altered: redeploy cert-manager.' };
  }
  const other = /admission webhook "([^"]*)" denied the request/.exec(stderr)?.[1];
  if (other) {
    return { code: 'OtherWebhookDenied', status: 'warn', message: `Another admission webhook, ${escapeLine(other)}, refused the dry-run request (${said}), so cert-manager's could not be probed.`, advice: `That policy must let cert-manager create CertificateRequests in ${CERT_MANAGER_NAMESPACE} and the platform's namespaces, or cert-manager cannot issue.` };
  }
  return { code: 'Unknown', message: `The API server refused the dry-run CertificateRequest: ${said || 'no reason given'}.`, advice: 'Read the error; "kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations" lists the webhooks that see cert-manager\'s objects.' };
}

function dryRun(kind: 'valid' | 'invalid', kube: KubectlOptions) {
  // --validate=false: kubectl's own schema check would read the OpenAPI document first; the API server checks anyway.
  return kubectl(['create', '--dry-run=server', '--validate=false', '-o', 'json', '-f', '-'], { ...kube, input: probe(kind) });
}

export async function webhookProbe(kube: KubectlOptions): Promise<RunResult<WebhookFacts>> {
  const facts: WebhookFacts = { namespace: CERT_MANAGER_NAMESPACE, dryRun: true };
  const fail = (f: Failure, step: string): RunResult<WebhookFacts> => {
    if (f.unavailable) return { unavailable: f.unavailable, message: f.message, text: f.advice };
    return {
      status: f.status ?? 'fail', message: f.message, advice: f.advice, facts: { ...facts, step, cause: f.code },
      ...(f.status ? {} : { stuck: { step: 'controller' as const, object: `Deployment ${CERT_MANAGER_NAMESPACE}/cert-manager-webhook`, reason: f.code } }),
    };
  };
  const valid = await dryRun('valid', kube);
  if (valid.exitCode !== 0) return fail(webhookFailure(valid.stderr), 'valid request');
  let mutated: boolean;
  try {
    const spec = memberOf(JSON.parse(valid.stdout), 'spec');
    mutated = Boolean(textOf(memberOf(spec, 'username')) || textOf(memberOf(spec, 'uid')));
  } catch {
    return { status: 'fail', message: `kubectl's answer to the dry-run create is not JSON: ${escapeLine(firstLine(valid.stdout)).slice(0, 200)}`, advice: 'Check kubectl and the cluster with the same context.', facts };
  }
  if (!mutated) {
    return fail({ code: 'MutationWebhookMissing', message: 'cert-manager\'s mutating webhook did not run: the dry-run CertificateRequest came back without the requester\'s identity.', advice: 'The MutatingWebhookConfiguration cert-manager-webhook is missing: redeploy cert-manager (the platform installs it with its Helm chart).' }, 'valid request');
  }
  const invalid = await dryRun('invalid', kube);
  if (invalid.exitCode === 0) {
    return fail({ code: 'ValidatingWebhookMissing', message: 'cert-manager\'s validating webhook did not run: a CertificateRequest whose request is no CSR was admitted.', advice: 'The ValidatingWebhookConfiguration cert-manager-webhook is missing: redeploy cert-manager.' }, 'invalid request');
  }
  if (!DENIED_BY_CERT_MANAGER.test(invalid.stderr)) return fail(webhookFailure(invalid.stderr), 'invalid request');
  return { status: 'ok', message: `cert-manager's webhook answers the API server: a dry-run CertificateRequest in ${CERT_MANAGER_NAMESPACE} was filled in by its mutating webhook, and an invalid one refused by its validating webhook.`, facts };
}
