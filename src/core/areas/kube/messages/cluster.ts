/**
 * The kube group's words about the cluster itself: the kubectl context, cert-manager's CRDs, its
 * components and its webhook, and what keyless route53 needs of the cluster.
 */
import { CERT_MANAGER_NAMESPACE, MIN_CERT_MANAGER } from '../../../kube/platform.js';

export const CONTEXT = {
  cannotList: (kubeconfig: string, why: string) =>
    `kubectl could not list the contexts of kubeconfig ${kubeconfig}: ${why}.`,
  exitCode: (code: number | null) => `exit code ${code}`,
  checkKubeconfig: 'Check KUBECONFIG and that the file is readable and valid ("kubectl config view").',
  notChecked: (context: string, why: string) => `Context "${context}" not checked: ${why}`,
  getContextsFailed: (error: string) => `kubectl config get-contexts failed: ${error}`,
  checkKubeconfigAndKubectl: 'Check KUBECONFIG and kubectl.',
  exists: (context: string, kubeconfig: string) => `Context "${context}" exists in kubeconfig ${kubeconfig}.`,
  missing: (context: string, kubeconfig: string, contexts: string | undefined) =>
    `kubectl has no context "${context}" in kubeconfig ${kubeconfig}; ${contexts ? `its contexts are: ${contexts}` : 'it has no context at all'}.`,
  chooseContext: (contexts: string, context: string) =>
    `Pass --context with one of ${contexts} (or correct CLOUDGATE_CONTEXT, "context:" in the kube: section of --config, or the saved context: cloudgate config set context NAME), or point KUBECONFIG at the file that holds "${context}".`,
  findKubeconfig: (context: string) => `Point KUBECONFIG at a kubeconfig that holds context "${context}".`,
} as const;

/** cert-manager's CRDs, as keyless route53 needs them. */
export const CRDS = {
  notInstalled: (crd: string) => `The CRD ${crd} is not installed: cert-manager is missing.`,
  install: `Install cert-manager ${MIN_CERT_MANAGER} or newer with its CRDs.`,
  tooOld: (version: string) =>
    `cert-manager CRDs are ${version}; route53 auth kubernetes needs ${MIN_CERT_MANAGER} or newer (older CRDs lack serviceAccountRef for this solver).`,
  upgradeForKeyless: `Upgrade cert-manager and its CRDs to ${MIN_CERT_MANAGER} or newer before choosing route53 auth kubernetes.`,
  unlabelledOld: (crd: string) =>
    `${crd} carries no version label and its schema lacks serviceAccountRef: older than ${MIN_CERT_MANAGER}.`,
  upgrade: `Upgrade cert-manager and its CRDs to ${MIN_CERT_MANAGER} or newer.`,
  unlabelledOpen: (crd: string) =>
    `${crd} carries no version label and its schema keeps unknown fields: its version cannot be told.`,
  checkVersion: `Check that cert-manager is ${MIN_CERT_MANAGER} or newer (kubectl get deploy -n cert-manager -o wide).`,
  labelWithoutField: (version: string, crd: string) =>
    `cert-manager CRDs say ${version}, but the ${crd} schema lacks serviceAccountRef.`,
  reapply: 'The CRDs were probably not upgraded with the chart: re-apply the CRDs of the installed version.',
  recentEnough: (version: string) => `cert-manager CRDs are ${version} (≥ ${MIN_CERT_MANAGER}).`,
  hasField: (crd: string) => `The ${crd} schema has serviceAccountRef (≥ ${MIN_CERT_MANAGER}).`,
} as const;

/** The service account keyless route53 signs in as, and cert-manager's right to its tokens. */
export const SERVICE_ACCOUNT = {
  exists: (namespace: string, name: string) => `The service account ${namespace}/${name} exists.`,
  missing: (namespace: string, name: string) => `The service account ${name} does not exist in namespace ${namespace}.`,
  create: (namespace: string, name: string) =>
    `Deploy with cluster_issuer_acme_route53_auth: kubernetes (the platform creates it), or create it: kubectl create serviceaccount --namespace=${namespace} -- ${name}. ` +
    "A custom name goes in cluster_issuer_acme_route53_service_account_name and in the role's trust policy subject.",
  readFailed: (namespace: string, name: string, error: string) =>
    `kubectl get serviceaccount ${name} -n ${namespace} failed: ${error}`,
  checkAccess: (namespace: string) =>
    `Check your access to the cluster (kubectl auth can-i get serviceaccounts -n ${namespace}).`,
  mayRequestTokens: (user: string, name: string) => `${user} may create tokens for ${name}.`,
  mayNotRequestTokens: (user: string, name: string) =>
    `${user} may not create tokens for ${name}: cert-manager cannot get credentials.`,
  grantTokens: (namespace: string, name: string, controller: string) =>
    `Create a Role in ${namespace} allowing "create" on serviceaccounts/token with resourceNames [${name}] and bind it to the ` +
    `service account ${controller} (the platform does this for route53 auth kubernetes; check that the deployment ran).`,
  canIFailed: (why: string) => `kubectl auth can-i failed: ${why}.`,
  checkImpersonation: 'Check your access to the cluster; impersonation (--as) needs the "impersonate" permission.',
  checkAccessWithContext: 'Check your access to the cluster with the same kubectl context.',
} as const;

/** cert-manager's controller, webhook and cainjector. */
export const HEALTH = {
  noDeployment: (component: string) => `no ${component} Deployment in ${CERT_MANAGER_NAMESPACE}`,
  scaledToZero: (name: string | undefined) => `${name} is scaled to 0 replicas`,
  notAvailable: (name: string | undefined, ready: number, replicas: number | string, why: string) =>
    `${name} is not available (${ready} of ${replicas} replicas ready${why})`,
  rolloutPending: (name: string | undefined, observed: number, generation: number) =>
    `${name} runs, but its status is of generation ${observed} while the Deployment is at ${generation}: the latest change is not rolled out yet`,
  noReadyEndpoint: (service: string) =>
    `the Service ${service} has no ready endpoint, so the API server cannot reach the webhook`,
  healthy: (versions: readonly unknown[]) =>
    `cert-manager's controller, webhook and cainjector are available${versions.length ? ` (${versions.join(', ')})` : ''} and the webhook has a ready endpoint.`,
  unhealthy: (problems: string) => `cert-manager is not healthy: ${problems}.`,
  lookAtDeployments: (versionSkew: string) =>
    `Look at "kubectl get deploy,pods -n ${CERT_MANAGER_NAMESPACE}" and "kubectl describe" the failing one (image pulls, crashes, scheduling); the platform installs cert-manager with its Helm chart, so redeploying it restores a deleted or scaled-down component.${versionSkew}`,
} as const;

/** What the API server made of a dry-run CertificateRequest, and so of cert-manager's webhook. */
export const WEBHOOK = {
  serviceMissing: (said: string) =>
    `The API server cannot call cert-manager's webhook: its Service does not exist (${said}).`,
  recreateService:
    'Redeploy cert-manager (the platform installs it with its Helm chart): the chart creates the Service cert-manager-webhook.',
  notRunning: (said: string) =>
    `The API server cannot reach cert-manager's webhook: nothing answers behind its Service (${said}).`,
  startPods:
    'The webhook\'s pods do not run or are not ready: "kubectl get deploy,pods -n cert-manager" (kube.cert-manager names the component).',
  caNotInjected: (said: string) =>
    `The API server does not trust cert-manager's webhook certificate: the CA bundle is not injected yet (${said}).`,
  checkCainjector:
    "The cainjector puts the webhook's CA into its webhook configurations: check that cert-manager-cainjector runs (kube.cert-manager), then restart it if the bundle stays empty.",
  timesOut: (said: string) => `The API server's call to cert-manager's webhook times out (${said}).`,
  letThrough:
    "Something between the API server and the webhook pod drops the connection (a network policy, a firewall to port 10250 of the pod network, a proxy): the API server must reach the webhook's pods.",
  mayNotCreate: (said: string) =>
    `The kubectl user may not create CertificateRequests in ${CERT_MANAGER_NAMESPACE}, even as a dry run, so the webhook cannot be probed (${said}).`,
  useContextThatMay: `Run the doctor with a context that may create certificaterequests.cert-manager.io in ${CERT_MANAGER_NAMESPACE} (kubectl auth can-i create certificaterequests -n ${CERT_MANAGER_NAMESPACE}).`,
  refusedValid: (said: string) =>
    `cert-manager's webhook refused a valid request (${said}): its mutating part did not fill in the requester.`,
  mutatingAltered:
    'The MutatingWebhookConfiguration cert-manager-webhook is missing or altered: redeploy cert-manager.',
  otherWebhook: (webhook: string, said: string) =>
    `Another admission webhook, ${webhook}, refused the dry-run request (${said}), so cert-manager's could not be probed.`,
  letCertManagerCreate: `That policy must let cert-manager create CertificateRequests in ${CERT_MANAGER_NAMESPACE} and the platform's namespaces, or cert-manager cannot issue.`,
  refused: (said: string) => `The API server refused the dry-run CertificateRequest: ${said || 'no reason given'}.`,
  listWebhooks:
    'Read the error; "kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations" lists the webhooks that see cert-manager\'s objects.',
  notJson: (answer: string) => `kubectl's answer to the dry-run create is not JSON: ${answer}`,
  checkKubectl: 'Check kubectl and the cluster with the same context.',
  mutatingDidNotRun:
    "cert-manager's mutating webhook did not run: the dry-run CertificateRequest came back without the requester's identity.",
  mutatingMissing:
    'The MutatingWebhookConfiguration cert-manager-webhook is missing: redeploy cert-manager (the platform installs it with its Helm chart).',
  validatingDidNotRun:
    "cert-manager's validating webhook did not run: a CertificateRequest whose request is no CSR was admitted.",
  validatingMissing: 'The ValidatingWebhookConfiguration cert-manager-webhook is missing: redeploy cert-manager.',
  answers: `cert-manager's webhook answers the API server: a dry-run CertificateRequest in ${CERT_MANAGER_NAMESPACE} was filled in by its mutating webhook, and an invalid one refused by its validating webhook.`,
} as const;
