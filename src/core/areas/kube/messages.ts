/**
 * The kube group's texts in one place: its checks' titles, why a check does not apply, and what a read
 * the cluster refused means. The words of its results are in messages/ by topic: the cluster and
 * cert-manager itself (cluster.ts), issuers (issuers.ts), Certificates and their secrets
 * (certificates.ts), and the commands that look at one object, status certificate and inspect secret
 * (inspect.ts). Each is named after what it says; the checks decide which to say.
 */
import { MIN_CERT_MANAGER } from '../../kube/platform.js';
import type { CheckResult, Unavailable } from '../../doctor/types.js';

export const TITLES = {
  context: 'The kubectl context exists',
  crdVersion: `cert-manager CRDs are ${MIN_CERT_MANAGER} or newer`,
  serviceAccount: (namespace: string, name: string) => `Service account ${namespace}/${name} exists`,
  tokenPermission: (name: string) => `cert-manager may request tokens for ${name}`,
  certManager: "cert-manager's controller, webhook and cainjector run",
  webhook: "cert-manager's webhook admits its objects (a dry-run create)",
  issuer: (name: string) => `ClusterIssuer "${name}" is Ready`,
  issuers: 'The other issuers the platform makes and its Certificates use are Ready',
  issuerDrift: (name: string) => `ClusterIssuer "${name}" matches the inventory`,
  certificates: "Certificates of the platform's namespaces are Ready and current",
  wildcardSecret: 'Supplied wildcard certificate secret (each copy)',
  ingressSecrets: "TLS secrets of the platform's ingresses",
} as const;

/** The issuer's name when the inventory makes it a template. */
export const TEMPLATED_NAME = '(a template)';

/** The no-cluster skip of this group reads "No cluster to ask: <why>". */
export const NO_CLUSTER_LEAD = 'No cluster to ask';

/** Why a check does not apply to this inventory, or cannot be made from it. */
export const CLOSED = {
  noIssuer: 'cluster_issuer_type is none: the platform issues nothing (see kube.wildcard-secret).',
  templatedIssuer:
    "The inventory makes the issuer's name a template, known only when the deployment runs: set cluster_issuer_name to a plain name to check it.",
  noSuppliedWildcard:
    'No supplied wildcard: the inventory does not set cluster_issuer_type: none with openstack_helm_ingress_secret_name.',
} as const;

/** Found only on the cluster: cert-manager's CRDs are not there, so nothing of cert-manager can be read (kube.issuer fails on it). */
export const CRDS_MISSING: Unavailable = {
  unavailable: 'needs-failed',
  message: "cert-manager's CRDs are not installed (kube.issuer says so).",
  text: 'Install cert-manager with its CRDs (the platform does it first).',
};

/** A read the cluster refused: what could not be read, and the `kubectl auth can-i` question that says why. */
export function refusedRead(what: string, error: string, canI: string): CheckResult {
  return {
    status: 'fail',
    message: `Cannot ${what}: ${error}`,
    advice: `Check your access to the cluster (kubectl auth can-i ${canI}).`,
  };
}
